// Values fixed at build time by vite.config.ts; outside a Vite build (unit tests) the defaults apply.
import { DEFAULT_SIGN_SECRET } from '@genset/protocol';

export const SIGN_SECRET = (typeof __SIGN_SECRET__ !== 'undefined' && __SIGN_SECRET__) || DEFAULT_SIGN_SECRET;
export const BODY_ENCRYPTION = typeof __API_ENCRYPTION__ !== 'undefined' && __API_ENCRYPTION__;
export const BUILD_DATE =
  typeof __BUILD_DATE__ !== 'undefined' ? __BUILD_DATE__ : new Date().toISOString().slice(0, 10);
