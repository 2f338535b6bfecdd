import type { MessageSettings } from '@genset/protocol';

/** A new account is told of every alarm of the sets it may see, in the message centre, by e-mail and SMS. */
export const DEFAULT_MESSAGE_SETTINGS: MessageSettings = {
  alarmSms: true,
  alarmEmail: true,
  alarmPush: true,
  maintenanceReminder: true,
  alarmLevel: 'all',
  alarmScope: 'all',
  alarmCleared: false,
  offlineMinutes: 30,
  transfers: true,
  repairs: true,
  quietFrom: '',
  quietTo: '',
  timeZone: '',
  email: '',
  phone: '',
  language: '',
};
