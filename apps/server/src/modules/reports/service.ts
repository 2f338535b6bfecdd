// Reports of a set (genset:report and the right to see the set): a form prefilled from the set's history over a
// period, saved as numbered versions, read back (the latest or any earlier one) and exported as PDF or XLSX.
import {
  checkReportForm,
  hasAnyPermission,
  Permission,
  ResultCode,
  reportTypesFor,
  unitIn,
  type Language,
  type ReportForm,
  type ReportProblem,
  type ReportType,
  type ReportVersion,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { translate } from '../../i18n/messages.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionContext } from '../auth/service.ts';
import type { DeviceService } from '../devices/service.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { HistoryService } from '../history/service.ts';
import { dayLabel } from '../history/range.ts';
import type { WeatherService } from '../weather/service.ts';
import { reportParts } from './periods.ts';
import { prefillRows } from './prefill.ts';
import type { ReportRepository, ReportRowDb } from './repository.ts';

export interface ReportServiceOptions {
  db: Db;
  devices: Pick<DeviceService, 'resolve'>;
  protocols: ProtocolStore;
  history: Pick<HistoryService, 'chart' | 'alarmChart'>;
  weather: WeatherService;
  repository: ReportRepository;
  now?: () => number;
}

interface Period {
  from: string;
  to: string;
}

/** The name of a form field as the report shows it: "Row 3 · Energy (kWh)". */
export function problemLabel(lang: Language, p: ReportProblem): string {
  const unit = p.def.unit ? ` (${unitIn(lang, p.def.unit)})` : '';
  if (p.row === undefined) {
    const key = `reports.fields.${p.def.key}`;
    const name = translate(lang, key);
    return name === key ? p.def.field : name;
  }
  const key = `reports.columns.${p.def.key}`;
  const column = translate(lang, key);
  return translate(lang, 'reports.rowField', {
    row: p.row + 1,
    column: column === key ? p.def.field : `${column}${unit}`,
  });
}

/** A refused form: the first problem in the message, every one by its path in `data.fields`. */
export function formRefusal(problems: ReportProblem[]): AppError {
  return new AppError(ResultCode.invalid, 'errors.validation', {}, null, (lang) => {
    const fields: Record<string, string> = {};
    for (const p of problems) {
      if (fields[p.path]) continue;
      fields[p.path] = translate(lang, 'errors.validation', {
        field: problemLabel(lang, p),
        rule: translate(lang, p.rule, p.params ?? {}),
      });
    }
    const first = problems[0]!;
    return {
      params: { field: problemLabel(lang, first), rule: translate(lang, first.rule, first.params ?? {}) },
      data: { fields },
    };
  });
}

function summary(row: Pick<ReportRowDb, 'id' | 'version' | 'period_from' | 'period_to' | 'author' | 'created_at'>) {
  return {
    id: row.id,
    version: row.version,
    from: row.period_from,
    to: row.period_to,
    createdAt: Number(row.created_at),
    author: row.author,
  };
}

export function versionOf(row: ReportRowDb): ReportVersion {
  return { ...summary(row), type: row.type as ReportType, form: JSON.parse(row.form) as ReportVersion['form'] };
}

export function createReportService(opts: ReportServiceOptions) {
  const { db, repository, weather } = opts;
  const now = opts.now ?? Date.now;

  /** The set named by token, for a caller who may read reports and see the set. */
  async function reportSet(ctx: SessionContext, token: string) {
    if (!hasAnyPermission(ctx.grant.permissions, [Permission.gensetReport])) throw forbidden();
    return (await opts.devices.resolve(ctx, token, 'view')).set;
  }

  return {
    async prefill(ctx: SessionContext, type: ReportType, input: Period & { token: string }, lang: Language) {
      const set = await reportSet(ctx, input.token);
      const tz = set.time_zone;
      const parts = reportParts(input.from, input.to, tz);
      const doc = (await opts.protocols.get(set.protocol_key))?.doc;
      const items = new Map((doc?.items ?? []).map((i) => [i.key, i.unit]));
      const rows = await prefillRows(ctx, input.token, type, parts, { history: opts.history, items }, lang, tz);

      let reading = null;
      let weatherError: string | null = null;
      try {
        reading = await weather.forSet(set);
      } catch (e) {
        // The report is still worth prefilling; the header says why the weather is blank.
        if (!(e instanceof AppError)) throw e;
        weatherError = translate(lang, e.key, e.params);
      }
      const company = await db.selectFrom('company').select('name').where('id', '=', set.company_id).executeTakeFirst();
      const ok = reading?.state === 'ok';
      const form: ReportForm = {
        one1: set.name,
        one2: company?.name ?? '',
        one3: ok ? reading!.celsius : null,
        one4: ok && reading!.pressure !== null ? Math.round(reading!.pressure) : null,
        one5: dayLabel(now(), tz),
        two1: ok && reading!.humidity !== null ? Math.round(reading!.humidity) : null,
        two2: (ctx.user.nickname || ctx.user.account) ?? '',
        two3: '',
        rows,
      };
      return { type, from: input.from, to: input.to, timeZone: tz, parts, form, weather: reading, weatherError };
    },

    async save(
      ctx: SessionContext,
      input: Period & { token: string; type: ReportType; form: unknown },
    ): Promise<{ id: number; version: number }> {
      const set = await reportSet(ctx, input.token);
      const problems = checkReportForm(input.type, input.form);
      if (problems.length) throw formRefusal(problems);
      const form = input.form as ReportForm;
      return repository.insertVersion({
        genset_id: set.id,
        type: input.type,
        period_from: input.from.trim(),
        period_to: input.to.trim(),
        // Only the form's own fields, in its order: what was checked is what is kept.
        form: JSON.stringify(form),
        user_id: ctx.user.id,
        author: ctx.user.nickname || ctx.user.account || String(ctx.user.id),
        created_at: now(),
      });
    },

    async info(ctx: SessionContext, input: { token: string; type: ReportType; version?: number | undefined }) {
      const set = await reportSet(ctx, input.token);
      const row = await repository.find(set.id, input.type, input.version);
      if (!row && input.version !== undefined) throw notFound();
      const versions = await repository.versions(set.id, input.type);
      return { report: row ? versionOf(row) : null, versions: versions.map(summary) };
    },

    async reportOne(ctx: SessionContext, token: string) {
      const set = await reportSet(ctx, token);
      const latest = await repository.latestOfEach(set.id);
      const doc = (await opts.protocols.get(set.protocol_key))?.doc;
      const first = await db
        .selectFrom('rollup_day')
        .select((eb) => eb.fn.min('bucket').as('first'))
        .where('genset_id', '=', set.id)
        .executeTakeFirst();
      const firstTs = first?.first === null || first?.first === undefined ? null : Number(first.first);
      return {
        token: set.token,
        name: set.name,
        timeZone: set.time_zone,
        latest: latest.map((row) => ({ ...summary(row), type: row.type as ReportType })),
        weatherConfigured: weather.configured,
        types: reportTypesFor(
          (doc?.items ?? []).map((i) => i.key),
          latest.map((row) => row.type as ReportType),
        ),
        dataFrom: firstTs === null ? null : dayLabel(firstTs, set.time_zone),
      };
    },

    /** A saved version with what its export shows around it. */
    async forExport(ctx: SessionContext, input: { token: string; type: ReportType; version?: number | undefined }) {
      const set = await reportSet(ctx, input.token);
      const row = await repository.find(set.id, input.type, input.version);
      if (!row) throw notFound();
      return { set, report: versionOf(row) };
    },
  };
}
export type ReportService = ReturnType<typeof createReportService>;
