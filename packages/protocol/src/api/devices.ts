// Request and response schemas of the monitoring and command calls (spec 7, "Monitoring").
import { z } from 'zod';
import { dataTypeSchema } from '../device-protocol/schema.ts';
import { V } from './rules.ts';

export const setToken = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(64, { error: V.tooLong })
    .regex(/^[A-Za-z0-9_-]+$/, { error: V.invalid });

export const tokenRequest = z.strictObject({ token: setToken() });

export const SET_STATUS_VALUES = [0, 1, 2, 3] as const;

export const setInfoResponse = z.object({
  status: z.number().int(),
  alarmnum: z.number().int(),
  gsname: z.string(),
  modulename: z.string(),
  template: z.string(),
  es: z.number().int(),
  reportid: z.number().int().nullable(),
  online: z.boolean(),
  rights: z.enum(['view', 'control', 'manage']),
  ts: z.number().nullable(),
  /** Whether the set has states to run in; a station's grid meter only measures (online or not). */
  runs: z.boolean(),
});
export type SetInfo = z.infer<typeof setInfoResponse>;

export const monitorItem = z.object({
  key: z.string(),
  name: z.string(),
  /** The protocol's data type: 'bit' items are on/off states. */
  type: dataTypeSchema,
  group: z.string(),
  unit: z.string(),
  decimals: z.number().int(),
  value: z.number().nullable(),
  label: z.string().nullable(),
  realtime: z.boolean(),
});
export type MonitorItem = z.infer<typeof monitorItem>;

export const monitorListResponse = z.object({
  status: z.number().int(),
  alarmnum: z.number().int(),
  ts: z.number().nullable(),
  items: z.array(monitorItem),
});

export const sendActionRequest = z.strictObject({
  token: setToken(),
  action: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(60, { error: V.tooLong }),
  password: z.string().max(128, { error: V.tooLong }).optional(),
});
export type SendActionRequest = z.infer<typeof sendActionRequest>;

export const commandResult = z.object({
  state: z.enum(['ok', 'error']),
  requestId: z.string().nullable(),
  info: z.string(),
});

export const restartModemRequest = z.strictObject({
  token: setToken(),
  utoken: z.string().max(100).optional(),
});

export const commandListResponse = z.array(z.object({ key: z.string(), title: z.string(), risky: z.boolean() }));
