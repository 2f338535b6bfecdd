// Firmware upgrades over the air (spec "/site/upgrade", "Upgrade file: name, path, size, MD5, status"; states
// not downloaded → downloaded → updated). A firmware file is uploaded once, for cloud modules of one model
// (target `module`) or for one controller model (target `controller`); it is assigned to one set, a selection or
// every set of the model as an upgrade campaign with a concurrency limit and an optional maintenance window.
// Each set's upgrade is a job that moves queued → initiated → downloading → downloaded → verified → updating →
// updated, or ends failed (with the reason) or cancelled.
import { z } from 'zod';
import { setToken } from './devices.ts';
import { V } from './checks.ts';
import { requiredLine } from './rules.ts';

/** Largest firmware file taken, in bytes. */
export const OTA_FILE_BYTES_MAX = 64 * 1024 * 1024;
export const OTA_NAME_MAX = 100;
export const OTA_VERSION_MAX = 64;
export const OTA_MODEL_MAX = 64;
/** Most sets one assignment may name (a whole model is not limited). */
export const OTA_SELECTION_MAX = 500;
/** Most modules one campaign lets download at once. */
export const OTA_CONCURRENCY_MAX = 100;

export const OTA_TARGETS = ['module', 'controller'] as const;
export type OtaTarget = (typeof OTA_TARGETS)[number];

/** The detailed states of one set's upgrade, in their order; `failed` and `cancelled` may end it at any step. */
export const OTA_JOB_STATES = [
  'queued',
  'initiated',
  'downloading',
  'downloaded',
  'verified',
  'updating',
  'updated',
  'failed',
  'cancelled',
] as const;
export type OtaJobState = (typeof OTA_JOB_STATES)[number];

/** States that still count as under way (a file in use by one of them cannot be deleted). */
export const OTA_OPEN_STATES: readonly OtaJobState[] = [
  'queued',
  'initiated',
  'downloading',
  'downloaded',
  'verified',
  'updating',
];
/** States in which an upgrade may still be cancelled: before its download has ended. */
export const OTA_CANCELLABLE_STATES: readonly OtaJobState[] = ['queued', 'initiated', 'downloading'];

/** The spec's three words for where a set's upgrade is. */
export const OTA_SPEC_STATES = ['notDownloaded', 'downloaded', 'updated'] as const;
export type OtaSpecState = (typeof OTA_SPEC_STATES)[number];

export function otaSpecState(state: OtaJobState): OtaSpecState {
  if (state === 'updated') return 'updated';
  if (state === 'downloaded' || state === 'verified' || state === 'updating') return 'downloaded';
  return 'notDownloaded';
}

const text = requiredLine;

/** A model or version as a module or controller reports it: letters, digits and . _ - + only. */
const word = (max: number) =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(max, { error: V.tooLong })
    .regex(/^[A-Za-z0-9._+-]+$/, { error: V.invalid });

const hex = (length: number) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(new RegExp(`^[0-9a-f]{${length}}$`), { error: V.invalid });

const id = () =>
  z.coerce
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(2_147_483_647, { error: V.invalid });

/** The text fields sent beside the file (multipart, field `file`) to POST /ota/file/upload. */
export const otaUploadFields = z.strictObject({
  name: text(OTA_NAME_MAX),
  version: word(OTA_VERSION_MAX),
  target: z.enum(OTA_TARGETS, { error: V.invalid }),
  model: word(OTA_MODEL_MAX),
  /** When given, the upload is refused unless the file's SHA-256 is this one. */
  sha256: hex(64).optional(),
  /** When given, the upload is refused unless the file's MD5 is this one. */
  md5: hex(32).optional(),
});
export type OtaUploadFields = z.input<typeof otaUploadFields>;

export const otaFile = z.object({
  id: z.number().int(),
  name: z.string(),
  version: z.string(),
  target: z.enum(OTA_TARGETS),
  model: z.string(),
  size: z.number().int(),
  md5: z.string(),
  sha256: z.string(),
  createdAt: z.number(),
  /** Jobs of this file in each spec state, and those failed or cancelled. */
  counts: z.object({
    notDownloaded: z.number().int(),
    downloaded: z.number().int(),
    updated: z.number().int(),
    failed: z.number().int(),
  }),
  /** Whether an unfinished upgrade uses it (then it cannot be deleted). */
  inUse: z.boolean(),
});
export type OtaFile = z.infer<typeof otaFile>;

export const otaFileListResponse = z.object({ list: z.array(otaFile) });
export type OtaFileListResponse = z.infer<typeof otaFileListResponse>;

export const otaFileIdRequest = z.strictObject({ id: id() });

/** Hours of the day (in UTC, 0–23) between which downloads may start; start = end means any time. */
const hour = () => z.int({ error: V.invalid }).min(0, { error: V.invalid }).max(23, { error: V.invalid });

/** POST /ota/job/assign: a file to sets, named one by one or as every set whose module (or controller) is of the file's model. */
export const otaAssignRequest = z
  .strictObject({
    fileId: id(),
    tokens: z.array(setToken()).max(OTA_SELECTION_MAX, { error: V.maxSelected }).optional(),
    /** Every set the caller manages whose module (or controller) is of the file's model. */
    allOfModel: z.boolean().optional(),
    concurrency: z
      .int({ error: V.invalid })
      .min(1, { error: V.invalid })
      .max(OTA_CONCURRENCY_MAX, { error: V.invalid })
      .default(5),
    window: z.strictObject({ startHour: hour(), endHour: hour() }).optional(),
  })
  .refine((r) => r.allOfModel === true || (r.tokens?.length ?? 0) > 0, {
    error: V.required,
    path: ['tokens'],
  });
export type OtaAssignRequest = z.input<typeof otaAssignRequest>;

export const otaAssignResponse = z.object({ campaignId: z.number().int(), jobs: z.number().int() });
export type OtaAssignResponse = z.infer<typeof otaAssignResponse>;

export const otaJob = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  fileId: z.number().int(),
  fileName: z.string(),
  version: z.string(),
  setToken: z.string(),
  setName: z.string(),
  state: z.enum(OTA_JOB_STATES),
  specState: z.enum(OTA_SPEC_STATES),
  /** Download progress, 0–100. */
  progress: z.number(),
  reason: z.string(),
  /** The version the module ran before the upgrade, when known. */
  fromVersion: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type OtaJob = z.infer<typeof otaJob>;

/** GET /ota/job/list: the jobs of one file (fileId) or of one set (token, its upgrade history). */
export const otaJobListRequest = z.strictObject({
  fileId: id().optional(),
  token: setToken().optional(),
});
export const otaJobListResponse = z.object({ list: z.array(otaJob) });
export type OtaJobListResponse = z.infer<typeof otaJobListResponse>;

export const otaJobCancelRequest = z.strictObject({ id: id() });

/** What the realtime connection pushes when a job moves: `{method: 'ota', job}`. */
export type OtaPush = { method: 'ota'; job: OtaJob };
