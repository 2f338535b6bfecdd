// What a station keeps of its past: the operation log's entries about it, its run records (tactics, strategy
// changes, safe stops, demand response, state changes) worded in the caller's language, and its sets' alarms,
// open now or raised within a range (the last 30 days by default).
import type { Language, SiteAlarmEntry, SiteRunRecord } from '@genset/protocol';
import { notFound } from '../../lib/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import { alarmEntry } from '../history/service.ts';
import { parseObject, type SiteContext } from './context.ts';

/** Alarm history without a range: the last 30 days. */
const ALARM_DAYS = 30;

export function createStationRecords({ db, repo, now, visible }: SiteContext) {
  // ---- run records -------------------------------------------------------------------------------------------

  function runText(lang: Language, kind: string, detail: Record<string, unknown>, version: number | null): string {
    const t = (key: string) => translate(lang, key);
    const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : '');
    const params: Record<string, string | number> = { version: version ?? '' };
    for (const [k, v] of Object.entries(detail)) if (typeof v === 'string' || typeof v === 'number') params[k] = v;
    if (kind === 'strategyChanged' || kind === 'tacticSent') {
      for (const k of ['from', 'to', 'strategy'])
        if (typeof detail[k] === 'string') params[k] = t(`sites.strategy.${str(detail[k])}`);
    }
    if (kind === 'stateChanged') {
      params.from = t(`sites.status.${str(detail.from)}`);
      params.to = t(`sites.status.${str(detail.to)}`);
    }
    if (kind === 'safeStop' || kind === 'safeCleared') params.reason = t(`sites.safe.${str(detail.reason)}`);
    if (kind === 'demandResponse') params.phase = t(`sites.drPhase.${str(detail.phase)}`);
    return translate(lang, `sites.run.${kind}`, params);
  }

  return {
    async log(ctx: SessionContext, req: { token: string; page: number; size: number }, lang: Language) {
      const site = await visible(ctx, req.token, 'view');
      const { rows: entries, total } = await repo.operations(site.company_id, site.token, req.page, req.size);
      return {
        list: entries.map((row) => logEntry(row, lang).entry),
        total,
        page: req.page,
        size: req.size,
      };
    },

    async logInfo(ctx: SessionContext, req: { token: string; id: number }, lang: Language) {
      const site = await visible(ctx, req.token, 'view');
      const row = await repo.operation(site.company_id, site.token, req.id);
      if (!row) throw notFound();
      const { entry, feedback } = logEntry(row, lang);
      return {
        ...entry,
        ip: row.ip ?? '',
        detail: feedback,
      };
    },

    async runRecords(
      ctx: SessionContext,
      req: {
        token: string;
        page: number;
        size: number;
        kind?: string | undefined;
        start?: number | undefined;
        end?: number | undefined;
      },
      lang: Language,
    ) {
      const site = await visible(ctx, req.token, 'view');
      const { rows: records, total } = await repo.runRecords(site.id, req);
      return {
        list: records.map((r): SiteRunRecord => {
          const detail = parseObject(r.detail);
          const version = r.version === null ? null : Number(r.version);
          return {
            id: r.id,
            ts: Number(r.ts),
            kind: r.kind as SiteRunRecord['kind'],
            text: runText(lang, r.kind, detail, version),
            version,
            detail,
          };
        }),
        total,
        page: req.page,
        size: req.size,
      };
    },

    // ---- alarms -----------------------------------------------------------------------------------------------

    async currentAlarms(ctx: SessionContext, token: string, lang: Language) {
      const site = await visible(ctx, token, 'view');
      const devices = await repo.devices(db, [site.id]);
      const byId = new Map(devices.map((d) => [d.gensetId, d]));
      const open = await repo.openAlarms(devices.map((d) => d.gensetId));
      const list: SiteAlarmEntry[] = open.map((row) => {
        const d = byId.get(row.genset_id)!;
        return { ...alarmEntry(row, lang), setToken: d.token, setName: d.name, role: d.role as 'pcs' };
      });
      return { alarmNum: list.length, list };
    },

    async alarmHistory(
      ctx: SessionContext,
      req: {
        token: string;
        start?: number | undefined;
        end?: number | undefined;
        level?: string | undefined;
        state: string;
        page: number;
        size: number;
      },
      lang: Language,
    ) {
      const site = await visible(ctx, req.token, 'view');
      const end = req.end ?? now();
      const start = req.start ?? end - ALARM_DAYS * 86_400_000;
      const devices = await repo.devices(db, [site.id]);
      const byId = new Map(devices.map((d) => [d.gensetId, d]));
      const { rows: found, total } = await repo.alarmHistory(
        devices.map((d) => d.gensetId),
        { start, end, level: req.level, state: req.state, page: req.page, size: req.size },
      );
      return {
        start,
        end,
        list: found.map((row): SiteAlarmEntry => {
          const d = byId.get(row.genset_id)!;
          return { ...alarmEntry(row, lang), setToken: d.token, setName: d.name, role: d.role as 'pcs' };
        }),
        total,
        page: req.page,
        size: req.size,
      };
    },
  };
}

/** An operation-log row as the station's log shows it: its matter in the reader's language, its outcome. */
function logEntry(
  row: {
    id: number;
    created_at: number;
    account: string | null;
    nickname: string | null;
    matter: string;
    feedback: string;
  },
  lang: Language,
) {
  const feedback = parseObject(row.feedback);
  const params = Object.fromEntries(
    Object.entries(feedback).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
  ) as Record<string, string | number>;
  const entry = {
    id: row.id,
    time: Number(row.created_at),
    account: row.account ?? '',
    nickname: row.nickname ?? '',
    matter: translate(lang, row.matter, params),
    outcome: typeof feedback.outcome === 'string' ? feedback.outcome : null,
  };
  return { entry, feedback };
}
