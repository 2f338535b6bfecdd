// Repair requests of a set and each step of their handling (state, note, who, when), which the requester
// follows. Pictures are files under DATA_DIR/uploads/repairs named in the request's row. The company
// administrator and operator roles that exist already are given repair:manage (the service queue), as new
// companies' roles are by the seed.
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function repairs(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('repair_request'), kind)
        .addColumn('token', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('requester_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('contact', 'varchar(64)', (c) => c.notNull())
        .addColumn('phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('address', 'varchar(200)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('pictures', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('repair_request_requester')
        .on('repair_request')
        .columns(['requester_id', 'id'])
        .execute();
      await db.schema.createIndex('repair_request_set').on('repair_request').columns(['genset_id', 'id']).execute();

      await idColumn(db.schema.createTable('repair_event'), kind)
        .addColumn('request_id', 'integer', (c) => c.notNull().references('repair_request.id').onDelete('cascade'))
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('note', 'varchar(500)', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('author', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('repair_event_request').on('repair_event').columns(['request_id', 'id']).execute();

      const roles = await sql<{ id: number; permissions: string }>`
        select id, permissions from role where role_key in ('companyAdmin', 'operator')`.execute(db);
      for (const role of roles.rows) {
        let permissions: unknown;
        try {
          permissions = JSON.parse(role.permissions);
        } catch {
          continue;
        }
        if (!Array.isArray(permissions) || permissions.includes('repair:manage')) continue;
        await sql`update role set permissions = ${JSON.stringify([...permissions, 'repair:manage'])} where id = ${role.id}`.execute(
          db,
        );
      }
    },
  };
}
