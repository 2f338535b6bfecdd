// Firmware upgrades over the air: the uploaded firmware files (stored under DATA_DIR/firmware by a generated
// name), the campaigns that assign a file to sets (concurrency limit, maintenance window) and one job per set
// with its state, progress and reason. The company administrator roles that exist already are given
// ota:manage, as new companies' roles are by the seed.
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function ota(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('ota_file'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('version', 'varchar(64)', (c) => c.notNull())
        .addColumn('target', 'varchar(16)', (c) => c.notNull())
        .addColumn('model', 'varchar(64)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('md5', 'varchar(32)', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('stored_name', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ota_file_company').on('ota_file').columns(['company_id', 'id']).execute();

      await idColumn(db.schema.createTable('ota_campaign'), kind)
        .addColumn('file_id', 'integer', (c) => c.notNull().references('ota_file.id').onDelete('cascade'))
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('concurrency', 'integer', (c) => c.notNull())
        // hours of the day (UTC) between which downloads may start; null: any time
        .addColumn('window_start', 'integer')
        .addColumn('window_end', 'integer')
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('ota_job'), kind)
        .addColumn('campaign_id', 'integer', (c) => c.notNull().references('ota_campaign.id').onDelete('cascade'))
        .addColumn('file_id', 'integer', (c) => c.notNull().references('ota_file.id').onDelete('cascade'))
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('modem_id', 'integer', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('reason', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('from_version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        // the module request of the current attempt, and the random token its download address carries
        .addColumn('request_id', 'varchar(64)')
        .addColumn('download_token', 'varchar(64)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('ota_job_state').on('ota_job').columns(['state', 'campaign_id']).execute();
      await db.schema.createIndex('ota_job_set').on('ota_job').columns(['genset_id', 'id']).execute();
      await db.schema.createIndex('ota_job_file').on('ota_job').columns(['file_id', 'id']).execute();
      await db.schema.createIndex('ota_job_request').on('ota_job').column('request_id').execute();
      await db.schema.createIndex('ota_job_download').on('ota_job').column('download_token').execute();

      const roles = await sql<{ id: number; permissions: string }>`
        select id, permissions from role where role_key = 'companyAdmin'`.execute(db);
      for (const role of roles.rows) {
        let permissions: unknown;
        try {
          permissions = JSON.parse(role.permissions);
        } catch {
          continue;
        }
        if (!Array.isArray(permissions) || permissions.includes('ota:manage')) continue;
        await sql`update role set permissions = ${JSON.stringify([...permissions, 'ota:manage'])} where id = ${role.id}`.execute(
          db,
        );
      }
    },
  };
}
