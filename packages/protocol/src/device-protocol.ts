// Protocol documents (controller register maps as data) and everything derived from them:
// poll blocks, the compiled decoder, alarms, set status, command and configuration writes, validation.
export * from './device-protocol/text.ts';
export * from './device-protocol/schema.ts';
export * from './device-protocol/codec.ts';
export * from './device-protocol/poll-blocks.ts';
export * from './device-protocol/status.ts';
export * from './device-protocol/commands.ts';
export * from './device-protocol/validate.ts';
export {
  ALARM_LEVELS as SEED_ALARM_LEVELS,
  ALARM_TITLES as SEED_ALARM_TITLES,
  type AlarmCode as SeedAlarmCode,
} from './device-protocol/vocabulary.ts';
export * from './device-protocol/layout-s.ts';
export * from './device-protocol/layout-g.ts';
export * from './device-protocol/layout-e.ts';
