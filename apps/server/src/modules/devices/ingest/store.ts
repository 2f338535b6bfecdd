// Store: a batch's one transaction. The decoded snapshots go into `sample`, a hundred rows per statement; a
// (modem, seq) stored before, or twice in the batch, is skipped by the table's key, so a resend after any
// crash or reconnect stores nothing twice. Each sample newly stored then goes through the status and alarm
// stage in the same transaction. Sets are changed on working copies, which `adopt` makes the cached states
// once the transaction committed: a batch that fails leaves the caches as they were.
import { CompiledQuery } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { sampleKeyColumns } from '../../../db/partitions.ts';
import type { SiteEnergy } from '../../sites/energy.ts';
import type { Sets } from './sets.ts';
import type { BatchChanges, StatusAlarms } from './status-alarms.ts';
import type { Decoded, SeenSeqs, SetState, StoredSample } from './types.ts';

/** Samples inserted by one statement. */
const SAMPLE_CHUNK = 100;

export function createStore({
  db,
  sets,
  statusAlarms,
  siteEnergy,
}: {
  db: Db;
  sets: Sets;
  statusAlarms: StatusAlarms;
  /** A station's PCS: its energy counters are counted onto the station's days and periods. */
  siteEnergy?: SiteEnergy;
}) {
  // The hot insert, compiled by Kysely for this dialect once per row count and then run with new parameters.
  const sampleInserts = new Map<number, string>();
  const sampleInsertSql = (rows: number) => {
    let text = sampleInserts.get(rows);
    if (!text) {
      const row = { modem_id: 0, seq: 0, genset_id: 0, ts: 0, status: 0, values: '' };
      text = db
        .insertInto('sample')
        .values(Array.from({ length: rows }, () => row))
        .onConflict((oc) => oc.columns(sampleKeyColumns(db)).doNothing())
        .returning(['id', 'modem_id', 'seq'])
        .compile().sql;
      sampleInserts.set(rows, text);
    }
    return text;
  };

  return {
    /** Stores the batch in one transaction; returns what is to follow once it is committed. */
    async write(decoded: Decoded[], seen: SeenSeqs) {
      const touched = new Map<number, SetState>();
      const changes: BatchChanges = { status: new Set(), alarms: new Set() };
      const rollups: StoredSample[] = [];
      let stored = 0;
      let duplicates = 0;
      let maxId = 0;
      let cameOnline: number[] = [];
      // Work on copies so that a failed transaction leaves the caches as they were.
      const working = new Map<number, SetState>();
      const workingCopy = (s: SetState): SetState => {
        let w = working.get(s.id);
        if (!w) {
          w = { ...s, openAlarms: new Map(s.openAlarms), rulesPending: new Map(s.rulesPending) };
          working.set(s.id, w);
        }
        return w;
      };

      await db.transaction().execute(async (trx) => {
        // (modem, seq) → id of the rows this batch inserted; a seq stored before (or twice in the batch) is not.
        const insertedIds = new Map<string, number>();
        for (let i = 0; i < decoded.length; i += SAMPLE_CHUNK) {
          const chunk = decoded.slice(i, i + SAMPLE_CHUNK);
          const params: (number | string)[] = [];
          for (const d of chunk) params.push(d.modem.id, d.message.seq, d.base.id, d.message.ts, d.status, d.json);
          const { rows } = await trx.executeQuery<{ id: number; modem_id: number; seq: number }>(
            CompiledQuery.raw(sampleInsertSql(chunk.length), params),
          );
          for (const r of rows) insertedIds.set(`${r.modem_id}|${r.seq}`, Number(r.id));
        }
        for (const d of decoded) {
          const key = `${d.modem.id}|${d.message.seq}`;
          const id = insertedIds.get(key);
          if (id === undefined) {
            duplicates++;
            continue;
          }
          insertedIds.delete(key);
          const set = workingCopy(d.base);
          stored++;
          if (id > maxId) maxId = id;
          const writing = statusAlarms.apply(trx, set, d, changes);
          if (writing) await writing;
          if (!d.message.error) rollups.push({ set, ts: d.message.ts, values: d.values, status: d.status, id });
          if (!d.message.error && siteEnergy?.has(set.id)) await siteEnergy.apply(trx, set.id, d.message.ts, d.values);
          touched.set(set.id, set);
        }
        cameOnline = await statusAlarms.writeBatch(trx, working, changes, seen.keys());
      });
      return { working, touched, alarmChanged: changes.alarms, rollups, stored, duplicates, maxId, cameOnline };
    },

    /** After the commit: the sets take their new state. */
    adopt(working: Map<number, SetState>) {
      for (const w of working.values()) {
        const base = sets.byId(w.id);
        if (base) Object.assign(base, w);
      }
    },
  };
}
