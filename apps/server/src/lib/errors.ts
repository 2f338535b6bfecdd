// Domain errors carry an envelope code and a message key; the API plugin translates them for the caller.
import { ResultCode, type Language } from '@genset/protocol';

/** Message parameters and data worded in the caller's language, for an error whose data holds texts too. */
export type WordedError = (lang: Language) => { params: Record<string, string | number>; data: unknown };

export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: string,
    readonly params: Record<string, string | number> = {},
    readonly data: unknown = null,
    /** When set, the API plugin takes the params and data from it, in the request's language. */
    readonly worded?: WordedError,
  ) {
    super(key);
  }
}

export const notSignedIn = () => new AppError(ResultCode.notSignedIn, 'errors.notSignedIn');
export const forbidden = () => new AppError(ResultCode.forbidden, 'errors.forbidden');
export const notFound = () => new AppError(ResultCode.notFound, 'errors.notFound');
export const tooMany = (key: string, retryAfterSeconds: number, params: Record<string, string | number> = {}) =>
  new AppError(ResultCode.tooMany, key, params, { retryAfter: retryAfterSeconds });
/** A 400 for one field, shaped like a schema failure so forms can show it beside the field. */
export const fieldError = (field: string, ruleKey: string, params?: Record<string, string | number>) =>
  new AppError(ResultCode.invalid, 'errors.validation', {}, { fieldErrors: [{ field, rule: ruleKey, params }] });
