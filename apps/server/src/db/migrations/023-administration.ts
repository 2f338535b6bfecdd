// Administration of companies and their people: a company's contact, currency and time zone; the companies a
// person belongs to (with the role and department held in each, so one account can work for several companies
// and switch between them); and the flag that makes a person change a password an administrator set for them.
import { sql, type Kysely } from 'kysely';

export function administration() {
  return {
    async up(db: Kysely<unknown>) {
      const companyColumns: [string, string, string][] = [
        ['contact_person', 'varchar(80)', ''],
        ['contact_phone', 'varchar(40)', ''],
        ['contact_email', 'varchar(254)', ''],
        ['currency', 'varchar(3)', 'USD'],
        ['time_zone', 'varchar(64)', 'UTC'],
      ];
      for (const [name, type, fallback] of companyColumns)
        await db.schema
          .alterTable('company')
          .addColumn(name, sql.raw(type), (c) => c.notNull().defaultTo(fallback))
          .execute();

      await db.schema
        .alterTable('users')
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      // Every company a person belongs to. The user row's company, role and department are those of their home
      // company and are repeated here, so "who belongs to company X" is one table whichever company is home.
      await db.schema
        .createTable('user_company')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (c) => c.references('role.id').onDelete('set null'))
        .addColumn('department_id', 'integer', (c) => c.references('department.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_company_pk', ['user_id', 'company_id'])
        .execute();
      await db.schema.createIndex('user_company_company').on('user_company').column('company_id').execute();
      await sql`
        insert into user_company (user_id, company_id, role_id, department_id, created_at)
        select id, company_id, role_id, department_id, created_at from users where status <> 'deleted'
      `.execute(db);

      await db.schema.createIndex('department_company').on('department').columns(['company_id', 'parent_id']).execute();
    },
  };
}
