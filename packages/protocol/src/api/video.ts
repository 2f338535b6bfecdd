// Cameras of a set and their live video (spec 2: /crewmanage/monitorVideo, /showvideo): the cameras a set
// has, adding, editing and removing them (manage rights), and watching one through a lease the player
// renews. Camera addresses reach ffmpeg as one argument, never through a shell; they are still held to a
// narrow alphabet so that nothing a shell, a log line or a form could misread is ever stored.
import { z } from 'zod';
import { setToken } from './devices.ts';
import { V } from './checks.ts';
import { MAX_ROW_ID } from './codes.ts';

/** Message keys of these schemas beyond the shared ones (translated by each side). */
export const VV = {
  cameraScheme: 'validation.cameraScheme',
  cameraChars: 'validation.cameraChars',
  cameraUserInfo: 'validation.cameraUserInfo',
} as const;

export const CAMERA_SCHEMES = ['rtsp', 'http', 'https'] as const;
export type CameraScheme = (typeof CAMERA_SCHEMES)[number];
export const CAMERA_NAME_MAX = 64;
export const CAMERA_URL_MAX = 500;
export const CAMERA_LOGIN_MAX = 128;
/** Most cameras one set may have. */
export const CAMERAS_PER_SET_MAX = 16;
/** How often the player renews its lease; a lease not renewed for twice as long ends. */
export const VIDEO_RENEW_SECONDS = 10;

/**
 * Characters a camera address may hold: letters, digits and the URL punctuation that carries no meaning to a
 * shell. Spaces, line breaks, quotes and ; | & $ ` \ < > ( ) { } ^ are refused, even though no shell ever
 * sees the address.
 */
const CAMERA_URL_CHARS = /^[A-Za-z0-9\-._~:/?#[\]!*+,=%@]*$/;
/** Percent-encoded control characters (a line break written as %0A …). */
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;

/**
 * Why a camera address is refused (a message key), or null when it is acceptable: rtsp, http or https, a
 * host, nothing outside the narrow alphabet, and no user name or password (they have fields of their own and
 * are stored encrypted).
 */
export function cameraUrlProblem(value: string): string | null {
  if (value === '') return V.required;
  if (value.length > CAMERA_URL_MAX) return V.tooLong;
  if (!/^(rtsp|https?):\/\//i.test(value)) return VV.cameraScheme;
  if (!CAMERA_URL_CHARS.test(value) || ENCODED_CONTROL.test(value)) return VV.cameraChars;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return V.invalid;
  }
  if (!url.hostname) return V.invalid;
  if (url.username || url.password) return VV.cameraUserInfo;
  return null;
}

/** Control characters have no place in a user name or password sent to a camera. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/;

const cameraName = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(CAMERA_NAME_MAX, { error: V.tooLong })
    .refine((v) => !CONTROL.test(v), { error: V.invalid });

export const cameraUrlField = () =>
  z.string({ error: V.required }).superRefine((value, ctx) => {
    const problem = cameraUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const loginText = () =>
  z
    .string({ error: V.invalid })
    .max(CAMERA_LOGIN_MAX, { error: V.tooLong })
    .refine((v) => !CONTROL.test(v), { error: V.invalid });

export const cameraIdField = () =>
  z
    .number({ error: V.required })
    .int({ error: V.invalid })
    .positive({ error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid });

/**
 * Add a camera: a name, its address, and optionally the camera's own sign-in (a password needs a user name).
 * The sign-in is stored encrypted and never returned.
 */
export const cameraAddRequest = z
  .strictObject({
    token: setToken(),
    name: cameraName(),
    url: cameraUrlField(),
    username: loginText().optional(),
    password: loginText().optional(),
  })
  .refine((v) => !v.password || Boolean(v.username), { error: V.required, path: ['username'] });
export type CameraAddRequest = z.input<typeof cameraAddRequest>;

/**
 * Change a camera: only what is sent changes. `username` replaces the stored sign-in (with `password`, empty
 * when absent); `username: null` or an empty one removes it; absent keeps it.
 */
export const cameraUpdateRequest = z
  .strictObject({
    token: setToken(),
    id: cameraIdField(),
    name: cameraName().optional(),
    url: cameraUrlField().optional(),
    username: loginText().nullable().optional(),
    password: loginText().optional(),
  })
  .refine((v) => v.password === undefined || Boolean(v.username), { error: V.required, path: ['username'] });
export type CameraUpdateRequest = z.input<typeof cameraUpdateRequest>;

export const cameraDeleteRequest = z.strictObject({ token: setToken(), id: cameraIdField() });

export const cameraItem = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The address without sign-in: only for users who manage the set (null for the others). */
  url: z.string().nullable(),
  /** Whether a sign-in is stored (managers only; false for the others). */
  hasLogin: z.boolean(),
});
export type CameraItem = z.infer<typeof cameraItem>;

export const cameraListResponse = z.object({
  setName: z.string(),
  cameras: z.array(cameraItem),
  /** The caller may add, edit and remove cameras. */
  manage: z.boolean(),
  /** ffmpeg is installed on the server: without it no camera can be watched. */
  available: z.boolean(),
});
export type CameraListResponse = z.infer<typeof cameraListResponse>;

export const cameraAddResponse = z.object({ id: z.number().int() });

export const videoWatchRequest = z.strictObject({ token: setToken(), id: cameraIdField() });

export const VIDEO_STATES = ['starting', 'live', 'failed'] as const;
export type VideoState = (typeof VIDEO_STATES)[number];
/** Why a stream failed: the camera could not be reached (or stopped sending), or sent no picture in time. */
export const VIDEO_PROBLEMS = ['unreachable', 'timeout'] as const;
export type VideoProblem = (typeof VIDEO_PROBLEMS)[number];

export const videoWatchResponse = z.object({
  /** The viewer's lease: renewed every `renewSeconds`, given back on leaving. */
  lease: z.string(),
  /** The HLS playlist, valid while the lease lives (it needs no headers, so a plain player can fetch it). */
  playlist: z.string(),
  renewSeconds: z.number().int(),
});
export type VideoWatchResponse = z.infer<typeof videoWatchResponse>;

export const videoLeaseRequest = z.strictObject({
  lease: z.string({ error: V.required }).regex(/^[A-Za-z0-9_-]{20,64}$/, { error: V.invalid }),
});

export const videoRenewResponse = z.object({
  state: z.enum(VIDEO_STATES),
  problem: z.enum(VIDEO_PROBLEMS).nullable(),
});
export type VideoRenewResponse = z.infer<typeof videoRenewResponse>;
