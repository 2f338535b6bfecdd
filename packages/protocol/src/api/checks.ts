// The checks of spec 5 as plain functions and the message keys, without the schema library: the console's
// public pages (sign-in, registration) use them and should not load zod for it. The schemas built on them are
// in rules.ts.

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/** International mobile number: optional +, 6 to 15 digits (Chinese mainland numbers are 11 digits from 1[3-9]). */
const MOBILE_RE = /^\+?[1-9]\d{5,14}$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_RE.test(value);
}
export function isMobile(value: string): boolean {
  return MOBILE_RE.test(value);
}
export function isUsername(value: string): boolean {
  return isEmail(value) || isMobile(value);
}

/** 8 to 20 characters combining letters, digits and special characters. */
export function isStrongPassword(value: string): boolean {
  return (
    value.length >= PASSWORD_MIN &&
    value.length <= PASSWORD_MAX &&
    /[A-Za-z]/.test(value) &&
    /\d/.test(value) &&
    /[^A-Za-z\d\s]/.test(value) &&
    !/\s/.test(value)
  );
}

/** Web addresses are accepted only with http, https, mailto or tel. */
export function isAllowedUrl(value: string): boolean {
  return /^(https?:\/\/[^\s]+|mailto:[^\s]+|tel:[+\d][\d\s()-]*)$/i.test(value);
}

/** Message keys used by the schemas. */
export const V = {
  required: 'validation.required',
  username: 'validation.username',
  passwordRule: 'validation.passwordRule',
  passwordMismatch: 'validation.passwordMismatch',
  code: 'validation.smsCode',
  tooLong: 'validation.tooLong',
  url: 'validation.url',
  invalid: 'validation.invalid',
  maxSelected: 'validation.maxSelected',
} as const;

/** An IANA time zone the runtime knows ("Europe/Istanbul"). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
