// Which module and set a snapshot is for. The bindings (module key → module; module, port and address → set)
// are read from the database once and kept until they are forgotten (a set added, moved or deleted, a
// failed batch, a module handed to another instance). A set is loaded with its live state (status, latest
// values, open alarms, how far its rollups go), which the later stages keep up to date in memory.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import { STATUS, type ModemInfo, type SetState, type Values } from './types.ts';

interface SetsOptions {
  db: Db;
  log: FastifyBaseLogger;
  cluster?: boolean;
  /** Several instances: brings a set's rollups up to date when this instance takes it (see rollups.ts). */
  takeUp: (set: SetState) => Promise<void>;
}

export function createSets({ db, log, cluster, takeUp }: SetsOptions) {
  const modems = new Map<string, ModemInfo | null>();
  /** By `modemId|port|address`; null: no set is bound there. */
  const bound = new Map<string, SetState | null>();
  const byId = new Map<number, SetState>();
  /** Where each held set is bound (`modemId|port|address`), to forget it alone. */
  const boundKeyOf = new Map<number, string>();
  /** Held sets, least recently used first, with when they were last used. */
  const used = new Map<number, number>();
  const touch = (id: number) => {
    used.delete(id);
    used.set(id, Date.now());
  };
  /** Modules whose `online` flag is 1 in the database (as far as this process knows). */
  const online = new Set<number>();

  async function modemByKey(key: string): Promise<ModemInfo | null> {
    if (modems.has(key)) return modems.get(key)!;
    const row = await db
      .selectFrom('modem')
      .select(['id', 'company_id', 'online'])
      .where('modem_key', '=', key)
      .executeTakeFirst();
    const info = row ? { id: row.id, key, companyId: row.company_id } : null;
    if (row?.online === 1) online.add(row.id);
    modems.set(key, info);
    return info;
  }

  async function load(
    row: { id: number; token: string; company_id: number; protocol_key: string; time_zone: string },
    modemId: number,
  ) {
    const known = byId.get(row.id);
    if (known) {
      // The binding may have changed (protocol, time zone); the live state in memory is newer than the table.
      Object.assign(known, {
        token: row.token,
        companyId: row.company_id,
        modemId,
        protocolKey: row.protocol_key,
        timeZone: row.time_zone,
      });
      return known;
    }
    const latest = await db.selectFrom('set_latest').selectAll().where('genset_id', '=', row.id).executeTakeFirst();
    const open = await db
      .selectFrom('alarm')
      .selectAll()
      .where('genset_id', '=', row.id)
      .where('end_ts', 'is', null)
      .execute();
    const state: SetState = {
      id: row.id,
      token: row.token,
      companyId: row.company_id,
      modemId,
      protocolKey: row.protocol_key,
      timeZone: row.time_zone,
      status: latest?.status ?? STATUS.offline,
      values: latest ? (JSON.parse(latest.values) as Values) : {},
      deviceTs: latest?.device_ts ?? 0,
      mergedId: Number(latest?.merged_id ?? 0),
      openAlarms: new Map(
        open.map((a) => [
          a.code,
          {
            id: a.id,
            code: a.code,
            level: a.level,
            title: JSON.parse(a.title) as Record<string, string>,
            start: a.start_ts,
          },
        ]),
      ),
      rulesPending: new Map(),
    };
    byId.set(state.id, state);
    touch(state.id);
    if (cluster) {
      if (!latest || latest.merged_id !== null) await takeUp(state);
      log.info({ gensetId: state.id, modemId }, `set ${state.id} taken up by this instance`);
    }
    return state;
  }

  async function setFor(modem: ModemInfo, port: string, address: number): Promise<SetState | null> {
    const cacheKey = `${modem.id}|${port}|${address}`;
    if (bound.has(cacheKey)) return bound.get(cacheKey)!;
    const row = await db
      .selectFrom('genset')
      .select(['id', 'token', 'company_id', 'protocol_key', 'time_zone'])
      .where('modem_id', '=', modem.id)
      .where('port', '=', port)
      .where('address', '=', address)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const state = row ? await load(row, modem.id) : null;
    bound.set(cacheKey, state);
    if (state) boundKeyOf.set(state.id, cacheKey);
    return state;
  }

  return {
    online,
    modemByKey,
    setFor,
    load,
    /** The cached module, without a read: undefined when it is not cached yet (null: no such module). */
    peekModem: (key: string) => modems.get(key),
    /** The cached set bound there, without a read: undefined when not cached yet (null: none is bound). */
    peekSet: (modemId: number, port: string, address: number) => bound.get(`${modemId}|${port}|${address}`),
    /** The set's live state, if this process holds it. */
    byId: (gensetId: number) => byId.get(gensetId),
    /** Forgets the sets (their state is taken from the database again when next needed). */
    forgetSets() {
      bound.clear();
      byId.clear();
      boundKeyOf.clear();
      used.clear();
    },
    /** Forgets every binding. */
    forget() {
      modems.clear();
      bound.clear();
      byId.clear();
      boundKeyOf.clear();
      used.clear();
    },
    /** The set's data arrived: it is the last to be let go. */
    touch,
    /**
     * The held sets that are to be let go, least recently used first: those unused for `idleMs`, and the oldest
     * beyond `max`. (Whether each may go, everything of it written, is the caller's question.)
     */
    *idle(max: number, idleMs: number): Generator<number> {
      const cutoff = Date.now() - idleMs;
      let over = byId.size - max;
      for (const [id, at] of used) {
        if (at >= cutoff && over <= 0) return;
        over--;
        yield id;
      }
    },
    /** Lets a set go; it is read again from the database with its next data. */
    forgetSet(id: number) {
      const key = boundKeyOf.get(id);
      if (key !== undefined && bound.get(key)?.id === id) bound.delete(key);
      boundKeyOf.delete(id);
      byId.delete(id);
      used.delete(id);
    },
    /** How many sets are held. */
    get held() {
      return byId.size;
    },
    /** Forgets the modules `owns` says no, and their sets; returns what was forgotten. */
    release(owns: (modemKey: string) => boolean) {
      const releasedModems: ModemInfo[] = [];
      const released = new Set<number>();
      for (const [key, info] of modems) {
        if (!info || owns(key)) continue;
        released.add(info.id);
        releasedModems.push(info);
        modems.delete(key);
        online.delete(info.id);
      }
      for (const [key, state] of bound) if (state && released.has(state.modemId)) bound.delete(key);
      const releasedSets: number[] = [];
      for (const [id, state] of byId) {
        if (!released.has(state.modemId)) continue;
        byId.delete(id);
        boundKeyOf.delete(id);
        used.delete(id);
        releasedSets.push(id);
      }
      return { modems: releasedModems, sets: releasedSets };
    },
  };
}
export type Sets = ReturnType<typeof createSets>;
