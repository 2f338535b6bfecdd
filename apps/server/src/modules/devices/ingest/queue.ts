// The snapshots waiting for a batch, in two lanes. Live data (read within the last minutes) goes first; a
// module's backlog (what it kept while it had no network, sent again when it is back) fills the rest of each
// batch. When a thousand modules come back after a day, the sets people watch keep moving while the day
// drains. A module's snapshots keep their order: once one of them waits in the backlog lane, the module's
// later ones join it there until it has been taken, so its status and alarms still follow its data in order.
import type { Queued } from './types.ts';

/** Data read longer ago than this is backlog. */
export const LIVE_LAG_MS = 120_000;

interface Entry extends Queued {
  /** Arrival number: work queued behind a message waits for every message that arrived before it. */
  n: number;
  late: boolean;
}

export function createIngestQueue(now: () => number = Date.now) {
  let live: Entry[] = [];
  let backlog: Entry[] = [];
  /** Snapshots of each module waiting in the backlog lane. */
  const backlogOf = new Map<string, number>();
  let arrivals = 0;

  function dropBacklog(modemKey: string) {
    const left = (backlogOf.get(modemKey) ?? 1) - 1;
    if (left > 0) backlogOf.set(modemKey, left);
    else backlogOf.delete(modemKey);
  }

  return {
    get size() {
      return live.length + backlog.length;
    },
    get backlog() {
      return backlog.length;
    },
    /** Queues a snapshot; returns its arrival number. */
    push(item: Queued): number {
      const n = ++arrivals;
      const late = now() - item.message.ts > LIVE_LAG_MS || backlogOf.has(item.modemKey);
      if (late) {
        backlog.push({ ...item, n, late });
        backlogOf.set(item.modemKey, (backlogOf.get(item.modemKey) ?? 0) + 1);
      } else live.push({ ...item, n, late });
      return n;
    },
    /** The arrival number of the last snapshot queued so far. */
    get last() {
      return arrivals;
    },
    /** The next batch (live first, then backlog), left in the queue until `done`. */
    peek(limit: number): Queued[] {
      const first = live.slice(0, limit);
      return first.length < limit ? first.concat(backlog.slice(0, limit - first.length)) : first;
    },
    /** Takes the batch `peek` gave out of the queue, once it is stored. */
    done(batch: readonly Queued[]) {
      // (what came meanwhile joined the lanes behind it)
      const fromBacklog = batch.filter((e) => (e as Entry).late).length;
      live.splice(0, batch.length - fromBacklog);
      for (const e of backlog.splice(0, fromBacklog)) dropBacklog(e.modemKey);
    },
    /** The arrival number of the oldest snapshot still waiting (Infinity: none). */
    oldest(): number {
      return Math.min(live[0]?.n ?? Infinity, backlog[0]?.n ?? Infinity);
    },
    /** Keeps only the snapshots of the modules `keep` says yes to. */
    filter(keep: (modemKey: string) => boolean) {
      live = live.filter((e) => keep(e.modemKey));
      const kept = backlog.filter((e) => keep(e.modemKey));
      for (const e of backlog) if (!keep(e.modemKey)) dropBacklog(e.modemKey);
      backlog = kept;
    },
  };
}
export type IngestQueue = ReturnType<typeof createIngestQueue>;
