// Validation rules of spec 5, shared by server schemas and console forms. Messages are keys that each
// side translates (server: src/i18n, console: locales/<lang>/validation.json).
import { z } from 'zod';

import { V, isStrongPassword, isUsername } from './checks.ts';

export * from './checks.ts';

export const required = () => z.string({ error: V.required }).trim().min(1, { error: V.required });

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
