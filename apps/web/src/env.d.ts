// Constants fixed at build time by vite.config.ts.
declare const __SIGN_SECRET__: string;
declare const __API_ENCRYPTION__: boolean;
declare const __BUILD_DATE__: string;
