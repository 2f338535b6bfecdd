// Validation rules of spec 5, shared by server schemas and console forms. Messages are keys that each
// side translates (server: src/i18n, console: locales/<lang>/validation.json).
import { z } from 'zod';

import { V, isStrongPassword, isUsername } from './checks.ts';
import { DEFAULT_PAGE_SIZE, MAX_ROW_ID, PAGE_SIZES } from './codes.ts';

export * from './checks.ts';

export const required = () => z.string({ error: V.required }).trim().min(1, { error: V.required });

/** A required line of text: trimmed, at most `max` characters, no control characters. */
export const requiredLine = (max: number) =>
  required()
    .max(max, { error: V.tooLong })
    .regex(/^[^\p{Cc}]+$/u, { error: V.invalid });

export const usernameField = () =>
  required()
    .max(254, { error: V.tooLong })
    .refine((v) => isUsername(v), { error: V.username });

export const passwordField = () =>
  z.string({ error: V.required }).min(1, { error: V.required }).max(128, { error: V.tooLong });

export const newPasswordField = () =>
  z
    .string({ error: V.required })
    .min(1, { error: V.required })
    .refine((v) => isStrongPassword(v), { error: V.passwordRule });

export const smsCodeField = () =>
  z
    .string({ error: V.required })
    .min(1, { error: V.required })
    .regex(/^\d{6}$/, { error: V.code });

/** A row id in a path or query (text, read as a number). */
export const queryRowId = () =>
  z.coerce
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid });

/** A row id in a JSON body. */
export const bodyRowId = () =>
  z
    .number({ error: V.required })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid });

/** The page asked for in a query: page from 1, size one of the console's page sizes. */
export const pageQuery = {
  page: z.coerce
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(100_000, { error: V.invalid })
    .default(1),
  size: z.coerce
    .number({ error: V.invalid })
    .pipe(z.literal(PAGE_SIZES, { error: V.invalid }))
    .default(DEFAULT_PAGE_SIZE),
};

/** What a page of a list answers beside its rows. */
export const pageTotals = { total: z.number().int(), page: z.number().int(), size: z.number().int() };
