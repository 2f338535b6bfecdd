// Puts a backup made by `npm run backup` in place of the server's database: `npm run restore -- FILE [--force]`.
// How each database is handled, and what is refused: src/tools/backup.ts.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { BackupError, describeTarget, restoreDatabase, runCommand } from './backup.ts';

const USAGE = `Usage: npm run restore -- <backup file> [--force] [--schema <name>]

Replaces the server's database (DATA_DIR / DATABASE_URL) with a backup made by npm run backup.
  SQLite       stop the server first; the database replaced is kept as console.db.before-restore-<UTC time>
  PostgreSQL   pg_restore --clean --if-exists in one transaction (no server may be connected)
  --force      PostgreSQL: replace a database that already holds data
  --schema     PostgreSQL: the schema the backup must hold`;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      force: { type: 'boolean', default: false },
      schema: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) throw new BackupError(`name one backup file\n\n${USAGE}`);
  const config = loadConfig();
  const base = process.env.INIT_CWD ?? process.cwd();
  const file = resolve(base, positionals[0]!);
  const result = await restoreDatabase({
    url: config.databaseUrl,
    file,
    force: values.force,
    ...(values.schema ? { schema: values.schema } : {}),
  });
  console.log(
    `Restored ${file} into ${describeTarget(config.databaseUrl, values.schema)} in ${(result.ms / 1000).toFixed(1)} s` +
      (result.setAside ? `; the database it replaced is kept as ${result.setAside}` : ''),
  );
}

runCommand(main);
