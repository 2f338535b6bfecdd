// Energy-storage stations: the station (its module, calendar, currency, ratings and the tactic it was sent and
// runs), the sets that play its roles (with the PCS's last counter reading counted), price templates kept in
// versions (a change never rewrites the past), each tactic sent with its outcome, the energy and money per
// local day, tariff period and template version, and the station's run records.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function sites(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('price_template'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('price_template_company')
        .on('price_template')
        .columns(['company_id', 'name'])
        .execute();

      await idColumn(db.schema.createTable('price_template_version'), kind)
        .addColumn('template_id', 'integer', (c) => c.notNull().references('price_template.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        // the template body (periods, prices, cut-offs, limits) as JSON
        .addColumn('body', 'text', (c) => c.notNull())
        // in force from this instant on (the first version also prices what came before it)
        .addColumn('valid_from', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'integer')
        .addColumn('created_by_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('price_template_version_unique', ['template_id', 'version'])
        .execute();

      await idColumn(db.schema.createTable('site'), kind)
        .addColumn('token', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('owner_user_id', 'integer')
        .addColumn('name', 'varchar(120)', (c) => c.notNull())
        .addColumn('address', 'varchar(200)')
        .addColumn('lat', 'double precision')
        .addColumn('lon', 'double precision')
        .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull().defaultTo('CNY'))
        .addColumn('capacity_kwh', 'double precision', (c) => c.notNull())
        .addColumn('rating_kw', 'double precision', (c) => c.notNull())
        .addColumn('transformer_kw', 'double precision')
        .addColumn('build_date', 'varchar(10)')
        .addColumn('modem_id', 'integer')
        .addColumn('template_id', 'integer')
        // the last tactic sent: its version (0: none), outcome and time
        .addColumn('tactic_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tactic_outcome', 'varchar(16)')
        .addColumn('tactic_sent_at', 'bigint')
        // the tactic the module accepted last: strategy and the template version it carried
        .addColumn('strategy', 'varchar(32)')
        .addColumn('template_version', 'integer')
        // what the module says its EMS runs (its hello and events): version, strategy, state, why it holds safe
        .addColumn('running_version', 'integer')
        .addColumn('running_strategy', 'varchar(32)')
        .addColumn('ems_state', 'varchar(16)')
        .addColumn('safe_reason', 'varchar(32)')
        .addColumn('setpoint_kw', 'double precision')
        .addColumn('demand_response', 'varchar(64)')
        .addColumn('ems_ts', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema.createIndex('site_company').on('site').columns(['company_id', 'name']).execute();
      await db.schema.createIndex('site_modem').on('site').column('modem_id').execute();

      await idColumn(db.schema.createTable('site_device'), kind)
        .addColumn('site_id', 'integer', (c) => c.notNull().references('site.id').onDelete('cascade'))
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        // pcs, bms, meter or pv
        .addColumn('role', 'varchar(8)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        // the PCS's energy counters as last counted (none yet: the next reading is where counting starts)
        .addColumn('last_ts', 'bigint')
        .addColumn('last_charge_kwh', 'double precision')
        .addColumn('last_discharge_kwh', 'double precision')
        .addUniqueConstraint('site_device_unique', ['site_id', 'genset_id'])
        .execute();
      await db.schema.createIndex('site_device_genset').on('site_device').column('genset_id').execute();

      await idColumn(db.schema.createTable('site_tactic'), kind)
        .addColumn('site_id', 'integer', (c) => c.notNull().references('site.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('strategy', 'varchar(32)', (c) => c.notNull())
        .addColumn('template_id', 'integer')
        .addColumn('template_version', 'integer')
        // the tactic as sent (JSON)
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('account', 'varchar(254)', (c) => c.notNull().defaultTo(''))
        .addColumn('request_id', 'varchar(64)')
        // pending, accepted, refused (reason: the module's words), timeout, offline
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('reason', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addUniqueConstraint('site_tactic_unique', ['site_id', 'version'])
        .execute();

      await db.schema
        .createTable('site_energy')
        .addColumn('site_id', 'integer', (c) => c.notNull().references('site.id').onDelete('cascade'))
        // YYYY-MM-DD in the station's time zone
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        // sharp, peak, flat or valley
        .addColumn('period', 'varchar(8)', (c) => c.notNull())
        // the price_template_version row in force (0: the station had no template then)
        .addColumn('template_version_id', 'integer', (c) => c.notNull())
        .addColumn('charge_kwh', 'double precision', (c) => c.notNull())
        .addColumn('discharge_kwh', 'double precision', (c) => c.notNull())
        .addColumn('charge_cost', 'double precision', (c) => c.notNull())
        .addColumn('discharge_income', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('site_energy_pk', ['site_id', 'day', 'period', 'template_version_id'])
        .execute();

      await idColumn(db.schema.createTable('site_run_record'), kind)
        .addColumn('site_id', 'integer', (c) => c.notNull().references('site.id').onDelete('cascade'))
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'integer')
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('site_run_record_site').on('site_run_record').columns(['site_id', 'ts']).execute();
    },
  };
}
