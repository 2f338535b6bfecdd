export * from './codes.ts';
export * from './sign.ts';
export * from './rules.ts';
export * from './auth.ts';
export * from './permissions.ts';
export * from './devices.ts';
export * from './protocols.ts';
