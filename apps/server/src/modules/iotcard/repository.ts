// What the SIM card domain reads and writes: cards and their plans, the latest counter reading counted, the
// bytes used per day and per billing month, and the set and module a card belongs to.
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

type Q = Db | Transaction<Database>;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export interface CardRow {
  iccid: string;
  planMb: number | null;
  startDay: number;
  alarmShare: number;
  lastTs: number | null;
  lastRx: number | null;
  lastTx: number | null;
}

export interface Reading {
  ts: number;
  rx: number;
  tx: number;
}

export interface PlanInput {
  sizeMb: number;
  startDay: number;
  alarmShare: number;
}

/** The set a module serves (its first, when it serves several): what usage is counted and told by. */
export interface SetOfCard {
  id: number;
  token: string;
  name: string;
  timeZone: string;
  companyId: number;
}

export function createSimRepository(db: Db) {
  /** A card seen for the first time: its reading is where counting starts. False when it exists already. */
  async function insertCard(q: Q, iccid: string, reading: Reading | null, plan?: PlanInput): Promise<boolean> {
    const now = Date.now();
    const res = await q
      .insertInto('sim_card')
      .values({
        iccid,
        plan_mb: plan?.sizeMb ?? null,
        start_day: plan?.startDay ?? 1,
        alarm_share: plan?.alarmShare ?? 80,
        last_ts: reading?.ts ?? null,
        last_rx: reading?.rx ?? null,
        last_tx: reading?.tx ?? null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('iccid').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  return {
    async card(q: Q, iccid: string): Promise<CardRow | null> {
      const r = await q.selectFrom('sim_card').selectAll().where('iccid', '=', iccid).executeTakeFirst();
      if (!r) return null;
      return {
        iccid: r.iccid,
        planMb: num(r.plan_mb),
        startDay: Number(r.start_day),
        alarmShare: Number(r.alarm_share),
        lastTs: num(r.last_ts),
        lastRx: num(r.last_rx),
        lastTx: num(r.last_tx),
      };
    },

    insertCard,

    /**
     * Moves the card's latest reading on, only if it is still the one the caller read (`prevTs`): two events
     * handled at once count once. False when another got there first.
     */
    async advance(q: Q, iccid: string, prevTs: number | null, next: Reading): Promise<boolean> {
      let update = q
        .updateTable('sim_card')
        .set({ last_ts: next.ts, last_rx: next.rx, last_tx: next.tx, updated_at: Date.now() })
        .where('iccid', '=', iccid);
      update = prevTs === null ? update.where('last_ts', 'is', null) : update.where('last_ts', '=', prevTs);
      const res = await update.executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async addUsage(q: Q, iccid: string, day: string, month: string, rx: number, tx: number) {
      await q
        .insertInto('sim_usage_day')
        .values({ iccid, day, rx_bytes: rx, tx_bytes: tx })
        .onConflict((oc) =>
          oc.columns(['iccid', 'day']).doUpdateSet((eb) => ({
            rx_bytes: eb('sim_usage_day.rx_bytes', '+', rx),
            tx_bytes: eb('sim_usage_day.tx_bytes', '+', tx),
          })),
        )
        .execute();
      await q
        .insertInto('sim_usage_month')
        .values({ iccid, month, rx_bytes: rx, tx_bytes: tx })
        .onConflict((oc) =>
          oc.columns(['iccid', 'month']).doUpdateSet((eb) => ({
            rx_bytes: eb('sim_usage_month.rx_bytes', '+', rx),
            tx_bytes: eb('sim_usage_month.tx_bytes', '+', tx),
          })),
        )
        .execute();
    },

    /** Bytes (received + sent) of one billing month. */
    async monthBytes(q: Q, iccid: string, month: string): Promise<number> {
      const r = await q
        .selectFrom('sim_usage_month')
        .select(['rx_bytes', 'tx_bytes'])
        .where('iccid', '=', iccid)
        .where('month', '=', month)
        .executeTakeFirst();
      return r ? Number(r.rx_bytes) + Number(r.tx_bytes) : 0;
    },

    async days(iccid: string, from: string, to: string) {
      const rows = await db
        .selectFrom('sim_usage_day')
        .select(['day', 'rx_bytes', 'tx_bytes'])
        .where('iccid', '=', iccid)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .orderBy('day')
        .execute();
      return rows.map((r) => ({ day: r.day, rxBytes: Number(r.rx_bytes), txBytes: Number(r.tx_bytes) }));
    },

    async months(iccid: string, months: string[]) {
      if (months.length === 0) return [];
      const rows = await db
        .selectFrom('sim_usage_month')
        .select(['month', 'rx_bytes', 'tx_bytes'])
        .where('iccid', '=', iccid)
        .where('month', 'in', months)
        .execute();
      return rows.map((r) => ({ month: r.month, bytes: Number(r.rx_bytes) + Number(r.tx_bytes) }));
    },

    /** Sets the plan (the card is made when the module has not reported counters yet). */
    async savePlan(q: Q, iccid: string, plan: PlanInput) {
      if (await insertCard(q, iccid, null, plan)) return;
      await q
        .updateTable('sim_card')
        .set({
          plan_mb: plan.sizeMb,
          start_day: plan.startDay,
          alarm_share: plan.alarmShare,
          updated_at: Date.now(),
        })
        .where('iccid', '=', iccid)
        .execute();
    },

    /** A billing month's total made again from its days (after its start day changed). */
    async resumMonth(q: Q, iccid: string, month: string, from: string, to: string) {
      const sum = await q
        .selectFrom('sim_usage_day')
        .select((eb) => [eb.fn.sum<number>('rx_bytes').as('rx'), eb.fn.sum<number>('tx_bytes').as('tx')])
        .where('iccid', '=', iccid)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .executeTakeFirst();
      const rx = Number(sum?.rx ?? 0);
      const tx = Number(sum?.tx ?? 0);
      await q.deleteFrom('sim_usage_month').where('iccid', '=', iccid).where('month', '=', month).execute();
      if (rx + tx > 0)
        await q.insertInto('sim_usage_month').values({ iccid, month, rx_bytes: rx, tx_bytes: tx }).execute();
    },

    /** The module's card as it last said hello. */
    async modemCard(q: Q, modemId: number) {
      return q
        .selectFrom('modem')
        .select(['iccid', 'imsi', 'telemetry', 'last_seen_at'])
        .where('id', '=', modemId)
        .executeTakeFirst();
    },

    async setOfModem(q: Q, modemId: number): Promise<SetOfCard | null> {
      const r = await q
        .selectFrom('genset')
        .select(['id', 'token', 'name', 'time_zone', 'company_id'])
        .where('modem_id', '=', modemId)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .executeTakeFirst();
      return r ? { id: r.id, token: r.token, name: r.name, timeZone: r.time_zone, companyId: r.company_id } : null;
    },

    /** The live sets whose module holds this card now. */
    async setTokensOfCard(iccid: string): Promise<string[]> {
      const rows = await db
        .selectFrom('genset')
        .innerJoin('modem', 'modem.id', 'genset.modem_id')
        .select('genset.token')
        .where('modem.iccid', '=', iccid)
        .where('genset.deleted_at', 'is', null)
        .orderBy('genset.id')
        .execute();
      return rows.map((r) => r.token);
    },
  };
}
export type SimRepository = ReturnType<typeof createSimRepository>;
