// A company's threshold alarms (its administrators'): besides a controller's own alarm bits, an alarm on any value
// of its sets, e.g. fuel below 20 % or coolant above 95 °C. A rule raises its alarm once the value has been past the
// threshold for `delaySeconds` of the set's own time, and clears it once the value is back past the threshold by
// the hysteresis (below it for "above", above it for "below"): a value that wavers about the threshold makes one
// alarm, not one a second. It applies to every set of the company, to the sets of some controller models
// (protocols), or to chosen sets. Its alarm is an alarm like the controller's: history, episodes, notices.
import { z } from 'zod';
import { V } from './checks.ts';
import { MAX_ROW_ID } from './codes.ts';
import { ALARM_LEVELS } from './history.ts';
import { required } from './rules.ts';

export const ALARM_RULE_OPS = ['above', 'below'] as const;
export type AlarmRuleOp = (typeof ALARM_RULE_OPS)[number];
/** Which sets a rule watches: every set of the company, those of chosen controller models, or chosen sets. */
export const ALARM_RULE_SCOPES = ['fleet', 'protocols', 'sets'] as const;
export type AlarmRuleScope = (typeof ALARM_RULE_SCOPES)[number];

export const ALARM_RULE_NAME_MAX = 60;
/** The longest delay before a rule raises its alarm: a day. */
export const ALARM_RULE_DELAY_MAX_S = 86_400;
/** The most rules a company keeps, and the most models or sets one rule names. */
export const ALARM_RULES_MAX = 100;
export const ALARM_RULE_TARGETS_MAX = 500;
/** An alarm a rule raises has this code followed by the rule's id (a controller's codes never start so). */
export const RULE_ALARM_PREFIX = 'rule:';

const id = z.number({ error: V.invalid }).int({ error: V.invalid }).positive({ error: V.invalid }).max(MAX_ROW_ID);
const finite = () => z.number({ error: V.required }).refine((n) => Number.isFinite(n), { error: V.invalid });

export const alarmRuleSaveRequest = z
  .strictObject({
    /** Absent: a new rule. */
    id: id.optional(),
    name: required().max(ALARM_RULE_NAME_MAX, { error: V.tooLong }),
    /** The item of the set's values (`fuel_level`, `coolant_temp`, …). */
    item: required().max(64, { error: V.tooLong }),
    op: z.enum(ALARM_RULE_OPS, { error: V.invalid }),
    threshold: finite(),
    /** How far back past the threshold the value must come to clear the alarm (in the item's unit, ≥ 0). */
    hysteresis: finite().min(0, { error: V.invalid }).default(0),
    delaySeconds: z
      .number({ error: V.required })
      .int({ error: V.invalid })
      .min(0, { error: V.invalid })
      .max(ALARM_RULE_DELAY_MAX_S, { error: V.invalid })
      .default(0),
    level: z.enum(ALARM_LEVELS, { error: V.invalid }),
    scope: z.enum(ALARM_RULE_SCOPES, { error: V.invalid }).default('fleet'),
    /** With scope `protocols`: the controller models' protocol keys. */
    protocols: z
      .array(required().max(64, { error: V.tooLong }))
      .max(ALARM_RULE_TARGETS_MAX, { error: V.tooLong })
      .default([]),
    /** With scope `sets`: the sets' tokens. */
    sets: z
      .array(required().max(64, { error: V.tooLong }))
      .max(ALARM_RULE_TARGETS_MAX, { error: V.tooLong })
      .default([]),
    enabled: z.boolean().default(true),
  })
  .refine((r) => r.scope !== 'protocols' || r.protocols.length > 0, { error: V.required, path: ['protocols'] })
  .refine((r) => r.scope !== 'sets' || r.sets.length > 0, { error: V.required, path: ['sets'] });
export type AlarmRuleSaveRequest = z.input<typeof alarmRuleSaveRequest>;

export const alarmRuleIdRequest = z.strictObject({ id });

export const alarmRuleItem = z.object({
  id: z.number().int(),
  name: z.string(),
  item: z.string(),
  op: z.enum(ALARM_RULE_OPS),
  threshold: z.number(),
  hysteresis: z.number(),
  delaySeconds: z.number().int(),
  level: z.enum(ALARM_LEVELS),
  scope: z.enum(ALARM_RULE_SCOPES),
  protocols: z.array(z.string()),
  /** The chosen sets (scope `sets`) with their names. */
  sets: z.array(z.object({ token: z.string(), name: z.string() })),
  enabled: z.boolean(),
  /** Its alarms open now, over the sets it watches. */
  active: z.number().int(),
  updatedAt: z.number(),
});
export type AlarmRuleItem = z.infer<typeof alarmRuleItem>;

/** What a rule may watch: the numeric items of the company's controller models, in the reader's language. */
export const alarmRuleChoice = z.object({
  key: z.string(),
  name: z.string(),
  unit: z.string(),
});
export const alarmRuleListResponse = z.object({
  list: z.array(alarmRuleItem),
  items: z.array(alarmRuleChoice),
  /** The controller models of the company's sets: key and name. */
  protocols: z.array(z.object({ key: z.string(), name: z.string() })),
});
export type AlarmRuleListResponse = z.infer<typeof alarmRuleListResponse>;

/** How long an alarm may stay cleared and continue its episode when it comes back: at most an hour. */
export const ALARM_HOLD_MAX_S = 3600;
/** The longest wait for an acknowledgement before an episode is escalated: a day. */
export const ESCALATE_AFTER_MAX_MIN = 1440;
/** The most people an episode is escalated to. */
export const ESCALATE_TO_MAX = 50;

/**
 * A company's alarm policy: the hold time of its episodes (60 s unless chosen), and, when an episode stays
 * unacknowledged for `escalateAfterMinutes` (null: never), the people it is escalated to, on the channels each chose.
 */
export const alarmPolicySaveRequest = z
  .strictObject({
    holdSeconds: z
      .number({ error: V.required })
      .int({ error: V.invalid })
      .min(0, { error: V.invalid })
      .max(ALARM_HOLD_MAX_S, { error: V.invalid }),
    escalateAfterMinutes: z
      .number({ error: V.invalid })
      .int({ error: V.invalid })
      .min(1, { error: V.invalid })
      .max(ESCALATE_AFTER_MAX_MIN, { error: V.invalid })
      .nullable(),
    escalateTo: z.array(id).max(ESCALATE_TO_MAX, { error: V.tooLong }).default([]),
  })
  .refine((p) => p.escalateAfterMinutes === null || p.escalateTo.length > 0, {
    error: V.required,
    path: ['escalateTo'],
  });
export type AlarmPolicySaveRequest = z.input<typeof alarmPolicySaveRequest>;

export const alarmPolicyResponse = z.object({
  holdSeconds: z.number().int(),
  escalateAfterMinutes: z.number().int().nullable(),
  escalateTo: z.array(z.number().int()),
  /** The company's people who may be named: id and name. */
  people: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type AlarmPolicyResponse = z.infer<typeof alarmPolicyResponse>;
