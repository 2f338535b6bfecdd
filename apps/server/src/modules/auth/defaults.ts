import type { MessageSettings } from '@genset/protocol';

export const DEFAULT_MESSAGE_SETTINGS: MessageSettings = {
  alarmSms: true,
  alarmEmail: true,
  alarmPush: true,
  maintenanceReminder: true,
};
