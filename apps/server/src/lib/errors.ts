// Domain errors carry an envelope code and a message key; the API plugin translates them for the caller.
import { ResultCode } from '@genset/protocol';

export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: string,
    readonly params: Record<string, string | number> = {},
    readonly data: unknown = null,
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
export const fieldError = (field: string, ruleKey: string) =>
  new AppError(ResultCode.invalid, 'errors.validation', {}, { fieldErrors: [{ field, rule: ruleKey }] });
