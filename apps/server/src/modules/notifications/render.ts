// A notice in words: title, text and the console page it leads to, made from its kind and facts in the
// reader's language (the message centre renders at reading time; e-mail and SMS at sending time).
import { pickLanguage, type Language, type NoticeKind } from '@genset/protocol';
import { translate } from '../../i18n/messages.ts';

export type NoticeFacts = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** An alarm's title in the reader's language (stored in every language), else its code. */
function alarmTitle(facts: NoticeFacts, lang: Language): string {
  const title = facts.title as Record<string, string> | undefined;
  return title?.[lang] ?? title?.['en-US'] ?? text(facts.code);
}

function when(ts: unknown, timeZone: unknown, lang: Language, withDate: boolean): string {
  if (typeof ts !== 'number') return '';
  const options: Intl.DateTimeFormatOptions = withDate
    ? { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }
    : { hour: '2-digit', minute: '2-digit' };
  try {
    // a time in the set's zone names that zone, so that it is never read as the reader's own
    const zone: Intl.DateTimeFormatOptions = timeZone ? { timeZone: String(timeZone), timeZoneName: 'short' } : {};
    return new Intl.DateTimeFormat(lang, { ...options, ...zone }).format(ts);
  } catch {
    return new Intl.DateTimeFormat(lang, options).format(ts);
  }
}

export function noticeLink(kind: NoticeKind, facts: NoticeFacts): string | null {
  const token = text(facts.token);
  if (kind.startsWith('transfer.')) return '/genset/transfers';
  if (kind.startsWith('repair.'))
    return facts.requestId ? `/baoxiu/detail/${encodeURIComponent(text(facts.requestId))}` : '/baoxiu/list';
  if (!token) return null;
  if (kind.startsWith('sim.')) return `/crewmanage/detail/${encodeURIComponent(token)}`;
  if (kind.startsWith('maintenance.')) return `/top/maintain?token=${encodeURIComponent(token)}`;
  if (kind.startsWith('alarm.')) return `/top/baojing?token=${encodeURIComponent(token)}`;
  return `/top/realtime?token=${encodeURIComponent(token)}`;
}

export function renderNotice(kind: NoticeKind, facts: NoticeFacts, language: string) {
  const lang = pickLanguage(language);
  const params: Record<string, string | number> = {
    set: text(facts.set),
    alarm: alarmTitle(facts, lang),
    level: facts.level ? translate(lang, `notice.level.${text(facts.level)}`) : '',
    time: when(facts.ts, facts.timeZone, lang, true),
    minutes: text(facts.minutes),
    item: text(facts.item),
    date: text(facts.date),
    from: text(facts.from),
    to: text(facts.to),
    requester: text(facts.requester),
    state: facts.state ? translate(lang, `notice.repairState.${text(facts.state)}`) : '',
    percent: text(facts.percent),
    used: text(facts.used),
    plan: text(facts.plan),
    iccid: text(facts.iccid),
  };
  return {
    title: translate(lang, `notice.${kind}.title`, params),
    text: translate(lang, `notice.${kind}.text`, params),
    link: noticeLink(kind, facts),
  };
}
