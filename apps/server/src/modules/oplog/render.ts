// An operation-log entry in words, made when it is read: the matter (a message key) with its placeholders filled
// from what the entry recorded (`feedback`), in the reader's language and time zone. A command is named by its
// title in the set's protocol, a setting by its name there (with the value's unit and the reader's digits), a
// set or station by its current name rather than its token, and a moment in the reader's zone with the zone
// named. Entries written before they recorded keys (an English title or name only) read as they were recorded.
import {
  findCommand,
  findConfigParam,
  unitIn,
  type ConfigParam,
  type Language,
  type ProtocolDocument,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { translate } from '../../i18n/messages.ts';
import type { ProtocolStore } from '../devices/protocols.ts';

export type Feedback = Record<string, unknown>;

/** What a target (a set's or station's token, or another thing's kind and id) is called, and which protocol a set speaks. */
export interface LogTarget {
  name: string;
  protocol: ProtocolDocument | undefined;
  /** The kind of a target recorded as `kind:id` (a webhook, a role…); absent for sets and stations. */
  kind?: TargetKind;
}

/** The kinds of things other than sets and stations an entry may name, and where their names are. */
const KIND_TABLES = {
  company: { table: 'company', key: 'id', name: 'name' },
  department: { table: 'department', key: 'id', name: 'name' },
  group: { table: 'genset_group', key: 'token', name: 'name' },
  'maintenance-template': { table: 'maintenance_template', key: 'id', name: 'name' },
  protocol: { table: 'protocol', key: 'protocol_key', name: 'name' },
  template: { table: 'price_template', key: 'id', name: 'name' },
  user: { table: 'users', key: 'id', name: 'nickname' },
  webhook: { table: 'webhook', key: 'id', name: 'name' },
  role: { table: 'role', key: 'id', name: 'name' },
  firmware: { table: 'ota_file', key: 'id', name: 'name' },
  invite: { table: 'invitation', key: 'code', name: 'code' },
  // an upgrade job has no name of its own: it is numbered
  upgrade: { table: null, key: 'id', name: null },
} as const;
export type TargetKind = keyof typeof KIND_TABLES;

function kindOf(target: string): { kind: TargetKind; id: string } | undefined {
  const at = target.indexOf(':');
  if (at <= 0) return undefined;
  const kind = target.slice(0, at);
  return Object.hasOwn(KIND_TABLES, kind) ? { kind: kind as TargetKind, id: target.slice(at + 1) } : undefined;
}

/** A target in the reader's words: a set or station by name, another thing by its kind and name. */
function targetText(lang: Language, target: string, found: LogTarget | undefined): string {
  if (found && !found.kind) return found.name;
  const named = kindOf(target);
  if (!named) return found?.name ?? target;
  const kind = translate(lang, `log.kind.${named.kind}`);
  if (KIND_TABLES[named.kind].table === null) return translate(lang, 'log.target.numbered', { kind, id: named.id });
  if (!found) return translate(lang, 'log.target.removed', { kind, id: named.id });
  // built-in roles are stored by their message key
  const name = found.name.startsWith('roles.') ? translate(lang, found.name) : found.name;
  return translate(lang, 'log.target.named', { kind, name });
}

export interface LogReader {
  lang: Language;
  /** IANA zone of the reader; the server's own when empty or unknown. */
  timeZone: string;
}

export interface RenderedEntry {
  /** The matter as a sentence in the reader's language. */
  matter: string;
  /** The outcome of a command or write (ok, timeout, offline, refused, error, notTaken), null for plain changes. */
  outcome: string | null;
  /** The outcome in the reader's language, '' when there is none. */
  outcomeText: string;
  /** The set's or station's name when the target is one, else the target as recorded. */
  target: string;
}

export function parseFeedback(text: string): Feedback {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Feedback) : {};
  } catch {
    return {};
  }
}

/** A text recorded in every language ({"en-US": …}) in the reader's, or a plain recorded text as it is. */
function localText(value: unknown, lang: Language): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const texts = value as Record<string, unknown>;
    const text = texts[lang] ?? texts['en-US'];
    return typeof text === 'string' ? text : undefined;
  }
  return undefined;
}

function zoneOrServer(timeZone: string): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

/** "28 нояб. 2026 г., 14:05 UTC+3": a moment in the reader's language and zone, the zone named. */
export function formatMoment(ts: number, reader: LogReader): string {
  return new Intl.DateTimeFormat(reader.lang, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: zoneOrServer(reader.timeZone),
  })
    .format(ts)
    .concat(' ', zoneName(ts, reader))
    .trim();
}

function zoneName(ts: number, reader: LogReader): string {
  const part = new Intl.DateTimeFormat(reader.lang, {
    timeZone: zoneOrServer(reader.timeZone),
    timeZoneName: 'short',
  })
    .formatToParts(ts)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? '';
}

/** A number in the reader's digits ("1 500,5" in Russian). */
function formatNumber(value: number, lang: Language, decimals = 3, grouping = true): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: decimals, useGrouping: grouping }).format(value);
}

/** A setting's value as the reader reads it: the option's label, or the number with the setting's unit. */
function settingValue(value: unknown, param: ConfigParam | undefined, lang: Language): string {
  if (typeof value !== 'number') return value === null || value === undefined ? '—' : String(value);
  const option = param?.options?.find((o) => o.value === value);
  if (option) return localText(option.label, lang) ?? String(value);
  const text = formatNumber(value, lang, param?.decimals ?? 3);
  const unit = param?.unit ? unitIn(lang, param.unit) : '';
  if (!unit) return text;
  return unit === '%' || unit === '°' ? `${text}${unit}` : `${text} ${unit}`;
}

/** A moment recorded as epoch ms or as an ISO text, else undefined. */
function momentOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 1e11) return value;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const ts = Date.parse(value);
    return Number.isNaN(ts) ? undefined : ts;
  }
  return undefined;
}

const MOMENT_KEYS = ['until', 'at', 'time'];
/** Targets looked up per query. */
const TARGET_SLICE = 500;

export function renderEntry(
  reader: LogReader,
  matter: string,
  feedback: Feedback,
  target: string,
  found: LogTarget | undefined,
): RenderedEntry {
  const { lang } = reader;
  const params: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(feedback)) {
    if (typeof value === 'string') params[key] = value;
    // a figure with decimals in the reader's digits ("12,5" in Russian); whole numbers (ids, counts) as they are
    else if (typeof value === 'number')
      params[key] = Number.isInteger(value) ? value : formatNumber(value, lang, 3, false);
    // a text recorded in every language (an alarm's title) in the reader's
    else if (value && typeof value === 'object') {
      const text = localText(value, lang);
      if (text !== undefined) params[key] = text;
    }
  }
  for (const key of MOMENT_KEYS) {
    const ts = momentOf(feedback[key]);
    if (ts !== undefined) params[key] = formatMoment(ts, reader);
  }
  const doc = found?.protocol;
  if (typeof feedback.command === 'string') {
    const command = doc ? findCommand(doc, feedback.command) : undefined;
    params.command =
      (command ? localText(command.title, lang) : undefined) ?? localText(feedback.title, lang) ?? feedback.command;
  }
  if (matter === 'log.configWrite') {
    const param = doc && typeof feedback.param === 'string' ? findConfigParam(doc, feedback.param) : undefined;
    params.name =
      (param ? localText(param.name, lang) : undefined) ??
      localText(feedback.name, lang) ??
      String(feedback.param ?? '');
    params.old = settingValue(feedback.old, param, lang);
    params.new = settingValue(feedback.new, param, lang);
  }
  const outcome = typeof feedback.outcome === 'string' ? feedback.outcome : null;
  const outcomeKey = outcome ? `log.outcome.${outcome}` : '';
  const outcomeText = outcome ? translate(lang, outcomeKey) : '';
  return {
    matter: translate(lang, matter, params),
    outcome,
    outcomeText: outcomeText === outcomeKey ? translate(lang, 'log.outcome.error') : outcomeText,
    target: targetText(lang, target, found),
  };
}

/** The sets and stations the entries name as targets, with their names and the sets' protocols. */
export async function loadTargets(
  db: Db,
  protocols: ProtocolStore | undefined,
  targets: Iterable<string>,
): Promise<Map<string, LogTarget>> {
  const tokens = [...new Set([...targets].filter((t) => t && !t.includes(':')))];
  const out = new Map<string, LogTarget>();
  // a file of the whole log may name many sets: asked for in slices the databases' parameter limits allow
  for (let i = 0; i < tokens.length; i += TARGET_SLICE) {
    const slice = tokens.slice(i, i + TARGET_SLICE);
    const sets = await db
      .selectFrom('genset')
      .select(['token', 'name', 'protocol_key'])
      .where('token', 'in', slice)
      .execute();
    for (const set of sets) {
      const compiled = protocols ? await protocols.get(set.protocol_key) : undefined;
      out.set(set.token, { name: set.name, protocol: compiled?.doc });
    }
    const rest = slice.filter((t) => !out.has(t));
    if (rest.length) {
      const sites = await db.selectFrom('site').select(['token', 'name']).where('token', 'in', rest).execute();
      for (const site of sites) out.set(site.token, { name: site.name, protocol: undefined });
    }
  }
  await loadNamedTargets(db, targets, out);
  return out;
}

/** The names of the other things entries name (`webhook:2`), one query per kind. */
async function loadNamedTargets(db: Db, targets: Iterable<string>, out: Map<string, LogTarget>) {
  const ids = new Map<TargetKind, Set<string>>();
  for (const target of targets) {
    const named = kindOf(target);
    if (named) ids.set(named.kind, (ids.get(named.kind) ?? new Set()).add(named.id));
  }
  for (const [kind, set] of ids) {
    const { table, key, name } = KIND_TABLES[kind];
    if (table === null || name === null) continue;
    const keys = [...set];
    for (let i = 0; i < keys.length; i += TARGET_SLICE) {
      const slice = keys.slice(i, i + TARGET_SLICE);
      const values = key === 'id' ? slice.map(Number).filter(Number.isInteger) : slice;
      if (!values.length) continue;
      // (the table, key and name columns come from the fixed list above, never from the entry)
      const rows = (await db
        .selectFrom(table as 'webhook')
        .select([`${key} as key` as 'id', `${name} as name` as 'name'])
        .where(key as 'id', 'in', values as number[])
        .execute()) as unknown as { key: string | number; name: string }[];
      for (const row of rows) out.set(`${kind}:${row.key}`, { name: row.name, protocol: undefined, kind });
    }
  }
}
