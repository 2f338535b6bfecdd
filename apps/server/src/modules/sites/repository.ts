// What the station domain reads and writes: stations and the sets bound to them, price templates and their
// versions, the tactics sent, the energy per day and period, run records and the station's operation log.
import { sql, type Selectable, type Transaction } from 'kysely';
import { countOf, pageOf } from '../../db/paging.ts';
import type { Db } from '../../db/database.ts';
import type { Database, SiteTable } from '../../db/schema.ts';

type Q = Db | Transaction<Database>;

export type SiteRow = Selectable<SiteTable>;

export interface SiteDeviceRow {
  siteId: number;
  gensetId: number;
  token: string;
  name: string;
  role: string;
  sort: number;
  modemId: number | null;
  port: string;
  address: number;
  protocolKey: string;
  companyId: number;
}

export interface TemplateVersionRow {
  id: number;
  templateId: number;
  version: number;
  body: string;
  validFrom: number;
  createdBy: string;
  createdAt: number;
}

export interface EnergyRow {
  day: string;
  period: string;
  templateVersionId: number;
  chargeKwh: number;
  dischargeKwh: number;
  chargeCost: number;
  dischargeIncome: number;
}

const versionOut = (r: {
  id: number;
  template_id: number;
  version: number;
  body: string;
  valid_from: number;
  created_by_name: string;
  created_at: number;
}): TemplateVersionRow => ({
  id: r.id,
  templateId: r.template_id,
  version: Number(r.version),
  body: r.body,
  validFrom: Number(r.valid_from),
  createdBy: r.created_by_name,
  createdAt: Number(r.created_at),
});

/** Kept by addEnergy alone (and defaulting to 0 on a new station). */
type SiteTotalColumn = 'total_charge_kwh' | 'total_discharge_kwh' | 'total_charge_cost' | 'total_discharge_income';

export function createSiteRepository(db: Db) {
  return {
    async byToken(token: string): Promise<SiteRow | undefined> {
      return db
        .selectFrom('site')
        .selectAll()
        .where('token', '=', token)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    async byId(q: Q, id: number): Promise<SiteRow | undefined> {
      return q.selectFrom('site').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    },

    /** The live station a module serves, if any. */
    async byModem(q: Q, modemId: number): Promise<SiteRow | undefined> {
      return q
        .selectFrom('site')
        .selectAll()
        .where('modem_id', '=', modemId)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .executeTakeFirst();
    },

    /** Stations of a company (null: of every company), by name, optionally filtered by part of the name. */
    async list(companyId: number | null, name: string | undefined): Promise<SiteRow[]> {
      let q = db.selectFrom('site').selectAll().where('deleted_at', 'is', null);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      if (name)
        q = q.where((eb) => eb(eb.fn('lower', ['name']), 'like', `%${name.toLowerCase().replace(/[%_\\]/g, '')}%`));
      return q.orderBy('name').orderBy('id').execute();
    },

    async insert(q: Q, row: Omit<SiteTable, 'id' | SiteTotalColumn>): Promise<number> {
      const r = await q
        .insertInto('site')
        .values({
          ...row,
          total_charge_kwh: 0,
          total_discharge_kwh: 0,
          total_charge_cost: 0,
          total_discharge_income: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },

    async update(q: Q, id: number, row: Partial<Omit<SiteTable, 'id' | SiteTotalColumn>>) {
      await q.updateTable('site').set(row).where('id', '=', id).execute();
    },

    /** The sets of stations, in their order (role, then as given). */
    async devices(q: Q, siteIds: readonly number[]): Promise<SiteDeviceRow[]> {
      if (siteIds.length === 0) return [];
      const rows = await q
        .selectFrom('site_device')
        .innerJoin('genset', 'genset.id', 'site_device.genset_id')
        .select([
          'site_device.site_id',
          'site_device.genset_id',
          'site_device.role',
          'site_device.sort',
          'genset.token',
          'genset.name',
          'genset.modem_id',
          'genset.port',
          'genset.address',
          'genset.protocol_key',
          'genset.company_id',
        ])
        .where('site_device.site_id', 'in', [...siteIds])
        .where('genset.deleted_at', 'is', null)
        .orderBy('site_device.site_id')
        .orderBy('site_device.sort')
        .execute();
      return rows.map((r) => ({
        siteId: r.site_id,
        gensetId: r.genset_id,
        token: r.token,
        name: r.name,
        role: r.role,
        sort: Number(r.sort),
        modemId: r.modem_id,
        port: r.port,
        address: Number(r.address),
        protocolKey: r.protocol_key,
        companyId: r.company_id,
      }));
    },

    /** Binds the sets given, in their order; a set bound before in the same role keeps its counter reading. */
    async bindDevices(q: Q, siteId: number, devices: readonly { gensetId: number; role: string }[]) {
      const before = await q
        .selectFrom('site_device')
        .select(['genset_id', 'role'])
        .where('site_id', '=', siteId)
        .execute();
      const keep = new Map(before.map((b) => [b.genset_id, b.role]));
      const wanted = new Set(devices.map((d) => d.gensetId));
      const gone = before.filter((b) => !wanted.has(b.genset_id)).map((b) => b.genset_id);
      if (gone.length)
        await q.deleteFrom('site_device').where('site_id', '=', siteId).where('genset_id', 'in', gone).execute();
      for (const [sort, d] of devices.entries()) {
        const role = keep.get(d.gensetId);
        if (role === undefined) {
          await q
            .insertInto('site_device')
            .values({ site_id: siteId, genset_id: d.gensetId, role: d.role, sort })
            .execute();
        } else {
          // a set that changes role starts its counting again
          const reset = role === d.role ? {} : { last_ts: null, last_charge_kwh: null, last_discharge_kwh: null };
          await q
            .updateTable('site_device')
            .set({ role: d.role, sort, ...reset })
            .where('site_id', '=', siteId)
            .where('genset_id', '=', d.gensetId)
            .execute();
        }
      }
    },

    /** Stations (other than `exceptSiteId`) that bind any of these sets. */
    async stationsOfSets(gensetIds: readonly number[], exceptSiteId: number | null) {
      if (gensetIds.length === 0) return [];
      let q = db
        .selectFrom('site_device')
        .innerJoin('site', 'site.id', 'site_device.site_id')
        .select(['site_device.genset_id', 'site.name'])
        .where('site_device.genset_id', 'in', [...gensetIds])
        .where('site.deleted_at', 'is', null);
      if (exceptSiteId !== null) q = q.where('site.id', '!=', exceptSiteId);
      return q.execute();
    },

    /** Another live station on the same module. */
    async otherOnModem(modemId: number, exceptSiteId: number | null) {
      let q = db
        .selectFrom('site')
        .select(['id', 'name'])
        .where('modem_id', '=', modemId)
        .where('deleted_at', 'is', null);
      if (exceptSiteId !== null) q = q.where('id', '!=', exceptSiteId);
      return q.executeTakeFirst();
    },

    // ---- the PCS's counters and the energy ---------------------------------------------------------------

    /** Every PCS bound to a live station, with what its energy is counted by. */
    async pcsBindings(q: Q) {
      return q
        .selectFrom('site_device')
        .innerJoin('site', 'site.id', 'site_device.site_id')
        .innerJoin('genset', 'genset.id', 'site_device.genset_id')
        .select([
          'site_device.genset_id',
          'site.id as site_id',
          'site.time_zone',
          'site.template_id',
          'genset.protocol_key',
        ])
        .where('site_device.role', '=', 'pcs')
        .where('site.deleted_at', 'is', null)
        .where('genset.deleted_at', 'is', null)
        .execute();
    },

    async counterReading(q: Q, siteId: number, gensetId: number) {
      const r = await q
        .selectFrom('site_device')
        .select(['last_ts', 'last_charge_kwh', 'last_discharge_kwh'])
        .where('site_id', '=', siteId)
        .where('genset_id', '=', gensetId)
        .executeTakeFirst();
      if (!r) return undefined;
      return {
        ts: r.last_ts === null ? null : Number(r.last_ts),
        charge: r.last_charge_kwh === null ? null : Number(r.last_charge_kwh),
        discharge: r.last_discharge_kwh === null ? null : Number(r.last_discharge_kwh),
      };
    },

    /** Moves the reading on only if it is still the one read (`prevTs`): one difference is counted once. */
    async advanceReading(
      q: Q,
      siteId: number,
      gensetId: number,
      prevTs: number | null,
      next: { ts: number; charge: number; discharge: number },
    ): Promise<boolean> {
      let u = q
        .updateTable('site_device')
        .set({ last_ts: next.ts, last_charge_kwh: next.charge, last_discharge_kwh: next.discharge })
        .where('site_id', '=', siteId)
        .where('genset_id', '=', gensetId);
      u = prevTs === null ? u.where('last_ts', 'is', null) : u.where('last_ts', '=', prevTs);
      const res = await u.executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async addEnergy(q: Q, siteId: number, row: EnergyRow) {
      await q
        .insertInto('site_energy')
        .values({
          site_id: siteId,
          day: row.day,
          period: row.period,
          template_version_id: row.templateVersionId,
          charge_kwh: row.chargeKwh,
          discharge_kwh: row.dischargeKwh,
          charge_cost: row.chargeCost,
          discharge_income: row.dischargeIncome,
        })
        .onConflict((oc) =>
          oc.columns(['site_id', 'day', 'period', 'template_version_id']).doUpdateSet((eb) => ({
            charge_kwh: eb('site_energy.charge_kwh', '+', row.chargeKwh),
            discharge_kwh: eb('site_energy.discharge_kwh', '+', row.dischargeKwh),
            charge_cost: eb('site_energy.charge_cost', '+', row.chargeCost),
            discharge_income: eb('site_energy.discharge_income', '+', row.dischargeIncome),
          })),
        )
        .execute();
      // and the station's totals since it was built, in the same transaction
      await q
        .updateTable('site')
        .set((eb) => ({
          total_charge_kwh: eb('total_charge_kwh', '+', row.chargeKwh),
          total_discharge_kwh: eb('total_discharge_kwh', '+', row.dischargeKwh),
          total_charge_cost: eb('total_charge_cost', '+', row.chargeCost),
          total_discharge_income: eb('total_discharge_income', '+', row.dischargeIncome),
        }))
        .where('id', '=', siteId)
        .execute();
    },

    /**
     * A station's energy between two local days (inclusive), summed in the database per bucket (the day, or its
     * month with `byMonth`) and period: a year's view reads 48 sums rather than every day's rows.
     */
    async energyBuckets(siteId: number, from: string, to: string, byMonth: boolean) {
      const bucket = byMonth ? sql<string>`substr(day, 1, 7)` : sql<string>`day`;
      const rows = await db
        .selectFrom('site_energy')
        .select((eb) => [
          bucket.as('bucket'),
          'period',
          eb.fn.sum<number>('charge_kwh').as('charge'),
          eb.fn.sum<number>('discharge_kwh').as('discharge'),
          eb.fn.sum<number>('charge_cost').as('cost'),
          eb.fn.sum<number>('discharge_income').as('income'),
        ])
        .where('site_id', '=', siteId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .groupBy([bucket, 'period'])
        .execute();
      return rows.map((r) => ({
        bucket: r.bucket,
        period: r.period,
        charge: Number(r.charge ?? 0),
        discharge: Number(r.discharge ?? 0),
        cost: Number(r.cost ?? 0),
        income: Number(r.income ?? 0),
      }));
    },

    /** Totals of stations since they were built (kept as their energy is counted). */
    async totals(siteIds: readonly number[]) {
      const out = new Map<number, { charge: number; discharge: number; cost: number; income: number }>();
      if (siteIds.length === 0) return out;
      const rows = await db
        .selectFrom('site')
        .select(['id', 'total_charge_kwh', 'total_discharge_kwh', 'total_charge_cost', 'total_discharge_income'])
        .where('id', 'in', [...siteIds])
        .execute();
      for (const r of rows)
        out.set(r.id, {
          charge: Number(r.total_charge_kwh),
          discharge: Number(r.total_discharge_kwh),
          cost: Number(r.total_charge_cost),
          income: Number(r.total_discharge_income),
        });
      return out;
    },

    async dayTotals(pairs: readonly { siteId: number; day: string }[]) {
      const out = new Map<number, { charge: number; discharge: number; cost: number; income: number }>();
      if (pairs.length === 0) return out;
      const rows = await db
        .selectFrom('site_energy')
        .select((eb) => [
          'site_id',
          'day',
          eb.fn.sum<number>('charge_kwh').as('charge'),
          eb.fn.sum<number>('discharge_kwh').as('discharge'),
          eb.fn.sum<number>('charge_cost').as('cost'),
          eb.fn.sum<number>('discharge_income').as('income'),
        ])
        .where((eb) => eb.or(pairs.map((p) => eb.and([eb('site_id', '=', p.siteId), eb('day', '=', p.day)]))))
        .groupBy(['site_id', 'day'])
        .execute();
      for (const r of rows)
        out.set(r.site_id, {
          charge: Number(r.charge ?? 0),
          discharge: Number(r.discharge ?? 0),
          cost: Number(r.cost ?? 0),
          income: Number(r.income ?? 0),
        });
      return out;
    },

    // ---- price templates ---------------------------------------------------------------------------------

    async template(q: Q, id: number) {
      return q
        .selectFrom('price_template')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    async templates(companyId: number, name: string | undefined, page: number, size: number) {
      let q = db.selectFrom('price_template').where('company_id', '=', companyId).where('deleted_at', 'is', null);
      if (name)
        q = q.where((eb) => eb(eb.fn('lower', ['name']), 'like', `%${name.toLowerCase().replace(/[%_\\]/g, '')}%`));
      const total = await countOf(q.select((eb) => eb.fn.countAll().as('n')));
      return pageOf(total, page, size, (limit, offset) =>
        q.selectAll().orderBy('name').orderBy('id').limit(limit).offset(offset).execute(),
      );
    },

    async insertTemplate(q: Q, row: { companyId: number; name: string; userId: number | null; now: number }) {
      const r = await q
        .insertInto('price_template')
        .values({
          company_id: row.companyId,
          name: row.name,
          created_by: row.userId,
          created_at: row.now,
          updated_at: row.now,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },

    async renameTemplate(q: Q, id: number, name: string, now: number) {
      await q.updateTable('price_template').set({ name, updated_at: now }).where('id', '=', id).execute();
    },

    async deleteTemplate(q: Q, id: number, now: number) {
      const res = await q
        .updateTable('price_template')
        .set({ deleted_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },

    async insertVersion(
      q: Q,
      row: {
        templateId: number;
        version: number;
        body: string;
        validFrom: number;
        userId: number | null;
        userName: string;
        now: number;
      },
    ) {
      const r = await q
        .insertInto('price_template_version')
        .values({
          template_id: row.templateId,
          version: row.version,
          body: row.body,
          valid_from: row.validFrom,
          created_by: row.userId,
          created_by_name: row.userName,
          created_at: row.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },

    /** Every version of the templates, oldest first. */
    async versions(q: Q, templateIds: readonly number[]): Promise<TemplateVersionRow[]> {
      if (templateIds.length === 0) return [];
      const rows = await q
        .selectFrom('price_template_version')
        .selectAll()
        .where('template_id', 'in', [...templateIds])
        .orderBy('template_id')
        .orderBy('version')
        .execute();
      return rows.map(versionOut);
    },

    async versionsByIds(ids: readonly number[]): Promise<TemplateVersionRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('price_template_version')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
      return rows.map(versionOut);
    },

    /** Stations that use each template. */
    async stationsUsing(templateIds: readonly number[]) {
      if (templateIds.length === 0) return [];
      return db
        .selectFrom('site')
        .select(['id', 'token', 'name', 'template_id'])
        .where('template_id', 'in', [...templateIds])
        .where('deleted_at', 'is', null)
        .orderBy('name')
        .execute();
    },

    // ---- tactics, run records, the operation log --------------------------------------------------------

    /** The next tactic version of a station, taken as a pending row (unique per station and version). */
    async insertTactic(
      q: Q,
      row: {
        siteId: number;
        version: number;
        strategy: string;
        templateId: number;
        templateVersion: number;
        body: string;
        userId: number | null;
        account: string;
        now: number;
      },
    ) {
      await q
        .insertInto('site_tactic')
        .values({
          site_id: row.siteId,
          version: row.version,
          strategy: row.strategy,
          template_id: row.templateId,
          template_version: row.templateVersion,
          body: row.body,
          user_id: row.userId,
          account: row.account,
          request_id: null,
          outcome: 'pending',
          reason: '',
          created_at: row.now,
          finished_at: null,
        })
        .execute();
    },

    async maxTacticVersion(q: Q, siteId: number): Promise<number> {
      const r = await q
        .selectFrom('site_tactic')
        .select((eb) => eb.fn.max<number>('version').as('v'))
        .where('site_id', '=', siteId)
        .executeTakeFirst();
      return Number(r?.v ?? 0);
    },

    async finishTactic(
      q: Q,
      siteId: number,
      version: number,
      outcome: { outcome: string; reason: string; requestId: string | null; now: number },
    ) {
      await q
        .updateTable('site_tactic')
        .set({
          outcome: outcome.outcome,
          reason: outcome.reason,
          request_id: outcome.requestId,
          finished_at: outcome.now,
        })
        .where('site_id', '=', siteId)
        .where('version', '=', version)
        .execute();
    },

    async runRecord(q: Q, row: { siteId: number; ts: number; kind: string; version?: number | null; detail?: object }) {
      await q
        .insertInto('site_run_record')
        .values({
          site_id: row.siteId,
          ts: row.ts,
          kind: row.kind,
          version: row.version ?? null,
          detail: JSON.stringify(row.detail ?? {}),
          created_at: Date.now(),
        })
        .execute();
    },

    async runRecords(
      siteId: number,
      f: {
        kind?: string | undefined;
        start?: number | undefined;
        end?: number | undefined;
        page: number;
        size: number;
      },
    ) {
      let q = db.selectFrom('site_run_record').where('site_id', '=', siteId);
      if (f.kind) q = q.where('kind', '=', f.kind);
      if (f.start !== undefined) q = q.where('ts', '>=', f.start);
      if (f.end !== undefined) q = q.where('ts', '<', f.end);
      const total = await countOf(q.select((eb) => eb.fn.countAll().as('n')));
      return pageOf(total, f.page, f.size, (limit, offset) =>
        q.selectAll().orderBy('ts', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      );
    },

    async operations(companyId: number, target: string, page: number, size: number) {
      const q = db.selectFrom('operation_log').where('company_id', '=', companyId).where('target', '=', target);
      const total = await countOf(q.select((eb) => eb.fn.countAll().as('n')));
      return pageOf(total, page, size, (limit, offset) =>
        q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      );
    },

    async operation(companyId: number, target: string, id: number) {
      return db
        .selectFrom('operation_log')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('target', '=', target)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    // ---- alarms of the station's sets ---------------------------------------------------------------------

    async openAlarms(gensetIds: readonly number[]) {
      if (gensetIds.length === 0) return [];
      return db
        .selectFrom('alarm')
        .selectAll()
        .where('genset_id', 'in', [...gensetIds])
        .where('end_ts', 'is', null)
        .orderBy('start_ts')
        .orderBy('id')
        .execute();
    },

    async alarmCounts(gensetIds: readonly number[]) {
      const out = new Map<number, number>();
      if (gensetIds.length === 0) return out;
      const rows = await db
        .selectFrom('alarm')
        .select((eb) => ['genset_id', eb.fn.countAll<number>().as('n')])
        .where('genset_id', 'in', [...gensetIds])
        .where('end_ts', 'is', null)
        .groupBy('genset_id')
        .execute();
      for (const r of rows) out.set(r.genset_id, Number(r.n));
      return out;
    },

    async alarmHistory(
      gensetIds: readonly number[],
      f: { start: number; end: number; level?: string | undefined; state: string; page: number; size: number },
    ) {
      if (gensetIds.length === 0) return { rows: [], total: 0 };
      let q = db
        .selectFrom('alarm')
        .where('genset_id', 'in', [...gensetIds])
        .where('start_ts', '>=', f.start)
        .where('start_ts', '<', f.end);
      if (f.level) q = q.where('level', '=', f.level);
      if (f.state === 'active') q = q.where('end_ts', 'is', null);
      if (f.state === 'ended') q = q.where('end_ts', 'is not', null);
      const total = await countOf(q.select((eb) => eb.fn.countAll().as('n')));
      return pageOf(total, f.page, f.size, (limit, offset) =>
        q.selectAll().orderBy('start_ts', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      );
    },

    async latest(gensetIds: readonly number[]) {
      if (gensetIds.length === 0) return [];
      return db
        .selectFrom('set_latest')
        .selectAll()
        .where('genset_id', 'in', [...gensetIds])
        .execute();
    },

    async modem(id: number) {
      return db.selectFrom('modem').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The departments of these owners (by user id). */
    async ownerDepartments(userIds: readonly (number | null)[]): Promise<Map<number, number | null>> {
      const ids = [...new Set(userIds.filter((id): id is number => id !== null))];
      const out = new Map<number, number | null>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .selectFrom('users')
          .select(['id', 'department_id'])
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const r of rows) out.set(r.id, r.department_id);
      }
      return out;
    },

    async ownerDepartment(userId: number | null): Promise<number | null> {
      if (userId === null) return null;
      const r = await db.selectFrom('users').select('department_id').where('id', '=', userId).executeTakeFirst();
      return r?.department_id ?? null;
    },

    async names(ids: { company: number; owner: number | null }) {
      const company = await db.selectFrom('company').select('name').where('id', '=', ids.company).executeTakeFirst();
      const owner =
        ids.owner === null
          ? undefined
          : await db.selectFrom('users').select('nickname').where('id', '=', ids.owner).executeTakeFirst();
      return { company: company?.name ?? '', owner: owner?.nickname ?? null };
    },
  };
}
export type SiteRepository = ReturnType<typeof createSiteRepository>;
