// A person's message settings as stored (JSON on the user), with the defaults for what they never set, and
// the rules read from them: which notices they want, where e-mail and SMS go, and when quiet hours end.
import type { MessageSettings, NoticeKind } from '@genset/protocol';
import { DEFAULT_MESSAGE_SETTINGS } from '../auth/defaults.ts';

export function readSettings(stored: string): MessageSettings {
  try {
    return { ...DEFAULT_MESSAGE_SETTINGS, ...(JSON.parse(stored) as Partial<MessageSettings>) };
  } catch {
    return { ...DEFAULT_MESSAGE_SETTINGS };
  }
}

/** Alarms that stop the set: they are sent whatever the level chosen, and even in quiet hours. */
export function stopsTheSet(level: unknown): boolean {
  return level === 'shutdown' || level === 'trip';
}

/** Whether a person with these settings wants a notice of this kind (before channels are chosen). */
export function wants(
  settings: MessageSettings,
  kind: NoticeKind,
  facts: { alarmLevel?: unknown; mine: boolean },
): boolean {
  switch (kind) {
    case 'alarm.raised':
    case 'alarm.cleared':
      if (kind === 'alarm.cleared' && !settings.alarmCleared) return false;
      if (settings.alarmScope === 'mine' && !facts.mine) return false;
      return settings.alarmLevel === 'all' || stopsTheSet(facts.alarmLevel);
    case 'alarm.escalated': // named by their company to be told: on whichever channels they chose
      return true;
    case 'set.offline':
      return settings.offlineMinutes > 0 && (settings.alarmScope === 'all' || facts.mine);
    case 'maintenance.due':
    case 'maintenance.overdue':
    case 'sim.usage': // a SIM card's plan running out goes to those who want service reminders
      return settings.maintenanceReminder;
    case 'transfer.requested':
    case 'transfer.accepted':
    case 'transfer.rejected':
    case 'transfer.revoked':
      return settings.transfers;
    case 'repair.submitted':
    case 'repair.state':
      return settings.repairs;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?\d{6,15}$/;

export function emailOf(settings: MessageSettings, account: string | null): string | null {
  if (settings.email) return settings.email;
  return account && EMAIL.test(account) ? account : null;
}

export function phoneOf(settings: MessageSettings, account: string | null): string | null {
  if (settings.phone) return settings.phone;
  return account && PHONE.test(account) ? account : null;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The minute of the day it is in a time zone (the server's own when the zone is empty or unknown). */
function minuteOfDay(now: number, timeZone: string): number {
  try {
    const parts = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    }).formatToParts(now);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
    return get('hour') * 60 + get('minute');
  } catch {
    const d = new Date(now);
    return d.getHours() * 60 + d.getMinutes();
  }
}

/** When quiet hours end, if it is quiet now; null when it is not (or no quiet hours are set). */
export function quietUntil(settings: MessageSettings, now: number): number | null {
  if (!settings.quietFrom || !settings.quietTo || settings.quietFrom === settings.quietTo) return null;
  const from = minutesOf(settings.quietFrom);
  const to = minutesOf(settings.quietTo);
  const m = minuteOfDay(now, settings.timeZone);
  const quiet = from < to ? m >= from && m < to : m >= from || m < to;
  if (!quiet) return null;
  const left = (to - m + 1440) % 1440;
  const startOfMinute = now - (now % 60_000);
  return startOfMinute + left * 60_000;
}
