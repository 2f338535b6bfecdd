// "Set offline for longer than N minutes", N chosen by each person: every half minute the instance holding the
// lease looks at the sets whose module is away, and records one event per set, outage and person once the
// person's N minutes have passed. An outage counts from the module's last word, or from this server's start
// when that is later (a server that was down itself does not know how long the module was away).
import type { Db } from '../../db/database.ts';
import { holdLease } from '../../lib/job-lease.ts';
import { createDataScope, type DataScopeService } from '../account/scope.ts';
import { readersOfSet } from './audience.ts';
import { recordNoticeEvent } from './engine.ts';
import { readSettings, wants } from './settings.ts';

/** Outages older than this are not looked at any more (they were told, or nobody asked). */
const LOOK_BACK_MS = 2 * 86_400_000;

export function createOfflineWatch(deps: {
  db: Db;
  holder: string;
  startedAt: number;
  now?: () => number;
  /** What roles reach (who is told); without one, resolved here. */
  scope?: DataScopeService;
}) {
  const { db } = deps;
  const scope = deps.scope ?? createDataScope({ db });
  const now = deps.now ?? Date.now;
  return async function check(): Promise<number> {
    const t = now();
    if (!(await holdLease(db, 'offline-watch', deps.holder, 90_000, t))) return 0;
    const away = await db
      .selectFrom('genset as g')
      .innerJoin('modem as m', 'm.id', 'g.modem_id')
      .select(['g.id', 'g.company_id', 'g.token', 'm.last_seen_at'])
      .where('g.deleted_at', 'is', null)
      .where('m.online', '=', 0)
      .where('m.last_seen_at', 'is not', null)
      .where('m.last_seen_at', '>', t - LOOK_BACK_MS)
      .execute();
    let recorded = 0;
    for (const set of away) {
      const since = Math.max(Number(set.last_seen_at), deps.startedAt);
      const minutesAway = (t - since) / 60_000;
      if (minutesAway < 1) continue;
      for (const reader of await readersOfSet(db, scope, set.id)) {
        const settings = readSettings(reader.user.message_settings);
        if (!wants(settings, 'set.offline', { mine: reader.mine })) continue;
        if (minutesAway < settings.offlineMinutes) continue;
        await recordNoticeEvent(db, {
          kind: 'set.offline',
          companyId: set.company_id,
          gensetId: set.id,
          audience: { users: [reader.user.id] },
          facts: { ts: since, minutes: settings.offlineMinutes, token: set.token },
          dedupeKey: `offline:${set.id}:${since}:${reader.user.id}`,
        });
        recorded++;
      }
    }
    return recorded;
  };
}
