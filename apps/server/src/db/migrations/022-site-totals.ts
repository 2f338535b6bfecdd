// A station's totals since it was built (charge and discharge kWh, charge cost, discharge income), kept with the
// station as its energy is counted: the station list shows them for every row, and summing every day a station
// ever had grew with each day of its service. Stations already counting are given the sums of their days.
import { sql, type Kysely } from 'kysely';

export function siteTotals() {
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ['total_charge_kwh', 'total_discharge_kwh', 'total_charge_cost', 'total_discharge_income'])
        await db.schema
          .alterTable('site')
          .addColumn(column, 'double precision', (c) => c.notNull().defaultTo(0))
          .execute();
      await sql`
        update site set
          total_charge_kwh = coalesce((select sum(e.charge_kwh) from site_energy e where e.site_id = site.id), 0),
          total_discharge_kwh = coalesce((select sum(e.discharge_kwh) from site_energy e where e.site_id = site.id), 0),
          total_charge_cost = coalesce((select sum(e.charge_cost) from site_energy e where e.site_id = site.id), 0),
          total_discharge_income = coalesce((select sum(e.discharge_income) from site_energy e where e.site_id = site.id), 0)
      `.execute(db);
    },
  };
}
