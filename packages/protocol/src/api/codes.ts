// Envelope codes and the shared language list: the console and the server read the same numbers.

export const ResultCode = {
  ok: 200,
  invalid: 400,
  notSignedIn: 101,
  tokenInvalid: 50008,
  sessionReplaced: 50012,
  tokenExpired: 50014,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooMany: 429,
  error: 500,
  /** The controller or its module answered with an error. */
  deviceFailed: 502,
  /** The module did not answer in time (or is offline): the command may not have been carried out. */
  deviceTimeout: 504,
  /** Something this call needs is not installed on the server (ffmpeg for video). */
  unavailable: 503,
  /** An administrator set a temporary password: nothing but changing it (or signing out) is answered until then. */
  passwordChangeRequired: 50020,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

/** Codes after which the console asks the user to sign in again. */
export const RELOGIN_CODES: readonly number[] = [
  ResultCode.tokenInvalid,
  ResultCode.sessionReplaced,
  ResultCode.tokenExpired,
];

export const LANGUAGES = ['en-US', 'zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en-US';

/** Picks the best supported language from an Accept-Language header or a bare tag. */
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const tags = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((t) => t.tag)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    const exact = LANGUAGES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    if (tag === 'zh-hant' || tag === 'zh-hk' || tag === 'zh-mo' || tag.startsWith('zh-hant')) return 'zh-TW';
    const base = tag.split('-')[0];
    const byBase = LANGUAGES.find((l) => l.toLowerCase().split('-')[0] === base);
    if (byBase) return byBase;
  }
  return DEFAULT_LANGUAGE;
}

/** The envelope every JSON response uses. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export const PAGE_SIZES = [10, 20, 30, 50] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_SELECTED_ITEMS = 20;
export const API_BASE = '/yewu';
export const REQUEST_TIMEOUT_MS = 300_000;
export const SIGN_WINDOW_SECONDS = 300;
/** The largest row id (ids are 32-bit integers in PostgreSQL): a larger one names nothing and is refused. */
export const MAX_ROW_ID = 2147483647;
