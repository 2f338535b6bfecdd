// A command to a whole group, run by the server set by set (a parallel group's sets at once): the job (who
// gave which command to which group, whether it is still running) and each set's part of it (its outcome as
// a message key with its parameters, worded in the reader's language). The rows outlive the page that asked
// and a restart of the server, which resumes the sets still waiting.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function groupCommands(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('group_command'), kind)
        .addColumn('group_id', 'integer', (c) => c.notNull().references('genset_group.id').onDelete('cascade'))
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        // the group's name and kind when the command was given
        .addColumn('group_name', 'varchar(60)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('command', 'varchar(64)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('lang', 'varchar(8)', (c) => c.notNull())
        // running, done
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('group_command_group').on('group_command').columns(['group_id', 'id']).execute();
      await db.schema.createIndex('group_command_state').on('group_command').column('state').execute();
      await db.schema
        .createTable('group_command_set')
        .addColumn('job_id', 'integer', (c) => c.notNull().references('group_command.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('set_name', 'varchar(120)', (c) => c.notNull())
        // pending, sending, ok, failed, refused
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        // the answer's code and message key, and its parameters as JSON
        .addColumn('code', 'integer')
        .addColumn('message', 'varchar(64)')
        .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('group_command_set_pk', ['job_id', 'genset_id'])
        .execute();
    },
  };
}
