// Threshold rules in ingestion: each snapshot of a set is held against its company's rules (alarm_rule) as it is
// stored, in the batch's transaction, on the instance that holds the set (one per set, however many instances).
// A rule whose condition holds (the value above, or below, its threshold) raises its alarm once it has held for the
// rule's delay in the set's own time; its alarm clears once the value is back past the threshold by the hysteresis.
// A snapshot without the item (a controller that does not read it, a reading that failed) changes nothing. An open
// alarm of a rule that was deleted, disabled or no longer watches the set clears with the set's next snapshot.
// The rules are read once and again at most every RULES_FRESH_MS (and at once after a change on this instance).
import { RULE_ALARM_PREFIX, type AlarmRuleOp } from '@genset/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../../db/database.ts';
import type { AlarmRuleTable } from '../../../db/schema/devices.ts';
import type { ActiveAlarm, OpenAlarm, SetState, Values } from './types.ts';

/** How long a change of rules made on another instance takes at most to be applied here. */
export const RULES_FRESH_MS = 5000;

export interface Rule {
  id: number;
  name: string;
  item: string;
  op: AlarmRuleOp;
  threshold: number;
  hysteresis: number;
  delayMs: number;
  level: string;
  /** null: every set of the company. */
  protocols: Set<string> | null;
  sets: Set<number> | null;
}

/** The alarm code of a rule. */
export const ruleCode = (id: number) => `${RULE_ALARM_PREFIX}${id}`;

function ruleOf(row: Selectable<AlarmRuleTable>): Rule {
  const targets = JSON.parse(row.targets) as unknown[];
  return {
    id: row.id,
    name: row.name,
    item: row.item,
    op: row.op === 'below' ? 'below' : 'above',
    threshold: Number(row.threshold),
    hysteresis: Number(row.hysteresis),
    delayMs: Number(row.delay_s) * 1000,
    level: row.level,
    protocols: row.scope === 'protocols' ? new Set(targets.map(String)) : null,
    sets: row.scope === 'sets' ? new Set(targets.map(Number)) : null,
  };
}

export function createRuleBook(db: Db) {
  let byCompany = new Map<number, Rule[]>();
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;

  async function read() {
    const rows = await db.selectFrom('alarm_rule').selectAll().where('enabled', '=', 1).execute();
    const next = new Map<number, Rule[]>();
    for (const row of rows) {
      const list = next.get(row.company_id) ?? [];
      list.push(ruleOf(row));
      next.set(row.company_id, list);
    }
    byCompany = next;
  }

  return {
    /** Reads the rules again if they are older than RULES_FRESH_MS (a batch calls it before it is stored). */
    async fresh(now = Date.now()): Promise<void> {
      if (now - readAt < RULES_FRESH_MS) return;
      reading ??= read()
        .then(() => void (readAt = now))
        .finally(() => (reading = null));
      await reading;
    },
    /** A rule was saved or deleted here: the next batch reads them again. */
    changed() {
      readAt = -Infinity;
    },
    /** The rules that watch the set. */
    of(set: SetState): Rule[] {
      const list = byCompany.get(set.companyId);
      if (!list) return [];
      return list.filter((r) => (!r.protocols || r.protocols.has(set.protocolKey)) && (!r.sets || r.sets.has(set.id)));
    },
  };
}
export type RuleBook = ReturnType<typeof createRuleBook>;

/** What a snapshot's values at `ts` do to the set's rule alarms: those to raise and the open ones to clear. */
export function judgeRules(
  set: SetState,
  rules: Rule[],
  values: Values,
  ts: number,
): { raise: ActiveAlarm[]; clear: OpenAlarm[] } {
  const raise: ActiveAlarm[] = [];
  const clear: OpenAlarm[] = [];
  const watching = new Set<string>();
  for (const rule of rules) {
    const code = ruleCode(rule.id);
    watching.add(code);
    const value = values[rule.item];
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    const open = set.openAlarms.get(code);
    if (open) {
      const back =
        rule.op === 'above' ? value <= rule.threshold - rule.hysteresis : value >= rule.threshold + rule.hysteresis;
      if (back) clear.push(open);
      continue;
    }
    const beyond = rule.op === 'above' ? value > rule.threshold : value < rule.threshold;
    if (!beyond) {
      set.rulesPending.delete(rule.id);
      continue;
    }
    const since = set.rulesPending.get(rule.id) ?? ts;
    if (ts - since >= rule.delayMs) {
      set.rulesPending.delete(rule.id);
      raise.push({ code, level: rule.level, title: { 'en-US': rule.name } });
    } else set.rulesPending.set(rule.id, since);
  }
  // a rule deleted, disabled or no longer watching the set: its alarm ends
  for (const open of set.openAlarms.values())
    if (open.code.startsWith(RULE_ALARM_PREFIX) && !watching.has(open.code)) clear.push(open);
  for (const id of set.rulesPending.keys()) if (!watching.has(ruleCode(id))) set.rulesPending.delete(id);
  return { raise, clear };
}
