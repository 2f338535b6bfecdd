// Backups of the console's database while the server runs, and their restore: `npm run backup -- [--out FILE]`
// and `npm run restore -- FILE [--force]` (src/tools/restore.ts). Both read the server's own configuration
// (DATA_DIR, DATABASE_URL), so they act on the database the server uses.
//
// SQLite: SQLite's online backup copies every page in one step, that is in one read transaction, so the copy is
// the database as of one moment; in WAL mode the server goes on writing meanwhile. The copy is switched out of
// WAL mode (one self-contained file), checked (`integrity_check`, the migrations it ran) and only then given its
// name. A restore refuses while another process has the database open, checks the backup the same way, and sets
// the database it replaces aside as `console.db.before-restore-<time>` rather than deleting it.
//
// PostgreSQL: `pg_dump --format=custom` of the configured database (or of one schema), read back with
// `pg_restore --list` before it gets its name; a restore runs `pg_restore --clean --if-exists` in one
// transaction, so the target is either the backup or as it was. A target that holds data is refused without
// `--force`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { isPostgresUrl, type DbKind } from '../db/database.ts';
import { migrations } from '../db/migrations/index.ts';

/** A refusal or failure the commands print as one line, without a stack. */
export class BackupError extends Error {}

export interface BackupOptions {
  /** The database: a SQLite file (`sqlite:` prefix allowed) or a postgres:// URL (the server's DATABASE_URL). */
  url: string;
  /** Where backups go by default (`<DATA_DIR>/backups`). */
  dataDir: string;
  /** The backup file (default `<dataDir>/backups/console-<UTC time>.db` or `.dump`). */
  out?: string;
  /** PostgreSQL: back up this schema only (default: the whole database). */
  schema?: string;
}

export interface BackupResult {
  kind: DbKind;
  file: string;
  bytes: number;
  ms: number;
}

export interface RestoreOptions {
  /** The database to replace (the server's DATABASE_URL). */
  url: string;
  /** The backup file. */
  file: string;
  /** PostgreSQL: replace data the target already holds. */
  force?: boolean;
  /** PostgreSQL: the schema the backup must hold (default: whatever schema it holds). */
  schema?: string;
}

export interface RestoreResult {
  kind: DbKind;
  /** SQLite: where the database that was replaced now lies. */
  setAside?: string;
  ms: number;
}

/** Whole pages copied in one backup step: all of them, so the copy is one read transaction (see top). */
const ALL_PAGES = 2 ** 31 - 1;
const SQLITE_HEADER = 'SQLite format 3\0';
const PG_DUMP_HEADER = 'PGDMP';

/** `20260314-093012`, in UTC: names sort in the order they were made whatever the machine's time zone. */
export function timeStamp(at = new Date()): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

export function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

const sqliteFile = (url: string) => url.replace(/^sqlite:(\/\/)?/, '');
/** A URL as it may be printed: without its password. */
export const shownUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
const firstLine = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean) ?? '';

/** Makes a rename survive a power cut: the directory entry is written, not only the file. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncFile(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fileHeader(file: string, length: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, read).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/** Which database a backup file holds, from its first bytes; refuses anything else. */
function backupKind(file: string): DbKind {
  if (!existsSync(file)) throw new BackupError(`no backup at ${file}`);
  if (!statSync(file).isFile()) throw new BackupError(`${file} is not a file`);
  const header = fileHeader(file, SQLITE_HEADER.length);
  if (header === SQLITE_HEADER) return 'sqlite';
  if (header.startsWith(PG_DUMP_HEADER)) return 'postgres';
  throw new BackupError(`${file} is not a backup: neither a SQLite database nor a pg_dump archive`);
}

/** Migrations a backup has run that this version does not know: it was made by a newer version. */
function unknownMigrations(names: string[], kind: DbKind, file: string): void {
  const known = new Set(Object.keys(migrations(kind)));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) {
    throw new BackupError(
      `${file} comes from a newer version of the console (migrations ${unknown.join(', ')} are unknown here); ` +
        'restore it with that version',
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// SQLite

/** Integrity and the migrations run; `label` names the file in messages. */
function checkSqlite(db: DatabaseSync, label: string): void {
  let problems: string[];
  try {
    const rows = db.prepare('PRAGMA integrity_check(20)').all() as { integrity_check: string }[];
    problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
  } catch (err) {
    throw new BackupError(`${label} is not a readable SQLite database (${(err as Error).message})`);
  }
  if (problems.length) throw new BackupError(`${label} is damaged: ${problems.slice(0, 3).join('; ')}`);
  const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`).get();
  if (!table) throw new BackupError(`${label} is not a backup of the console's database (it has no migrations)`);
  const names = (db.prepare('SELECT name FROM kysely_migration').all() as { name: string }[]).map((r) => r.name);
  unknownMigrations(names, 'sqlite', label);
}

async function backupSqlite(url: string, out: string): Promise<void> {
  const file = sqliteFile(url);
  // Opening a missing file would create an empty database and back that up.
  if (!existsSync(file)) throw new BackupError(`no SQLite database at ${file}`);
  const partial = `${out}.partial-${process.pid}`;
  const source = new DatabaseSync(file);
  try {
    source.exec('PRAGMA busy_timeout = 5000');
    // In steps of a few pages the backup starts over whenever another connection commits between two steps,
    // which under ingestion is all the time: one step reads everything in one transaction, which WAL mode
    // lets the server's writes go past.
    await backup(source, partial, { rate: ALL_PAGES });
  } catch (err) {
    rmSync(partial, { force: true });
    throw new BackupError(`the backup of ${file} failed: ${(err as Error).message}`);
  } finally {
    source.close();
  }
  try {
    const copy = new DatabaseSync(partial);
    try {
      // The copy is in WAL mode like its source; a backup is one file that can be copied alone.
      copy.exec('PRAGMA journal_mode = DELETE');
      checkSqlite(copy, `the backup of ${file}`);
    } finally {
      copy.close();
    }
    syncFile(partial);
    renameSync(partial, out);
    syncDirectory(dirname(out));
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}

/**
 * Holds the database to be replaced so that no server can use it during the swap, or refuses when a process
 * has it open. A process with a WAL database open holds a shared lock on it, so the file cannot leave WAL mode
 * until the last other connection closes: that is how a running server (or any other user of the file) is
 * seen, on this machine (file locks over a network file system are not to be trusted). Leaving WAL mode also
 * writes the log into the file, so what is set aside is one complete file.
 */
function takeOver(file: string): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file);
    db.exec('PRAGMA busy_timeout = 0');
    const mode = db.prepare('PRAGMA journal_mode = DELETE').get() as { journal_mode: string } | undefined;
    if (mode?.journal_mode !== 'delete') throw new Error('database is locked');
    // An exclusive lock until the swap is done: a server starting meanwhile waits, then fails to open it.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (err) {
    db?.close();
    const message = (err as Error).message;
    if (/locked|busy/i.test(message)) {
      throw new BackupError(
        `${file} is in use by another process (is the server running on this data directory?); stop it first`,
      );
    }
    throw new BackupError(`${file} cannot be opened to be replaced: ${message}`);
  }
}

async function restoreSqlite(url: string, file: string, now: Date): Promise<string | undefined> {
  const target = sqliteFile(url);
  const dir = dirname(target);
  mkdirSync(dir, { recursive: true });
  // The backup is checked as the copy that will be put in place, so the user's file is never written to.
  const incoming = `${target}.restoring-${process.pid}`;
  let held: DatabaseSync | undefined;
  try {
    copyFileSync(file, incoming);
    const copy = new DatabaseSync(incoming);
    try {
      checkSqlite(copy, file);
      copy.exec('PRAGMA journal_mode = DELETE');
    } finally {
      copy.close();
    }
    syncFile(incoming);

    let setAside: string | undefined;
    if (existsSync(target)) held = takeOver(target);
    const aside = `${target}.before-restore-${timeStamp(now)}`;
    // A log left next to the file (a server killed outright) belongs to the old database: replayed into the
    // restored one it would corrupt it, so it goes aside with its database.
    const companions = ['-wal', '-shm'].filter((suffix) => existsSync(`${target}${suffix}`));
    if (held || companions.length) {
      for (const candidate of [aside, ...companions.map((s) => `${aside}${s}`)]) {
        if (existsSync(candidate)) throw new BackupError(`${candidate} exists already; try again in a second`);
      }
    }
    if (held) {
      renameSync(target, aside);
      setAside = aside;
    }
    for (const suffix of companions) renameSync(`${target}${suffix}`, `${aside}${suffix}`);
    renameSync(incoming, target);
    syncDirectory(dir);
    return setAside;
  } finally {
    held?.close();
    rmSync(incoming, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A PostgreSQL client program: PATH first, then Debian's versioned directories, newest version first. */
export function findPgProgram(name: 'pg_dump' | 'pg_restore' | 'psql'): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    if (isExecutable(join(dir, name))) return join(dir, name);
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const path = join(root, version, 'bin', name);
    if (isExecutable(path)) return path;
  }
  throw new BackupError(
    `${name} not found in PATH or /usr/lib/postgresql/*/bin: install PostgreSQL's client programs ` +
      "(Debian: postgresql-client) of the server's version or newer",
  );
}

/**
 * The URL without its password, which goes to the program in PGPASSWORD instead: a command line can be read
 * by every user of the machine.
 */
function libpqTarget(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(program, args, { env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        const said = stderr
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        // pg_restore says which statement failed, then what PostgreSQL answered: the answer is the news.
        const line = said.find((l) => /error:/i.test(l)) ?? said[0] ?? err.message;
        reject(new BackupError(`${program.split('/').at(-1)} failed: ${line}`));
      } else {
        resolvePromise(stdout);
      }
    });
  });
}

/** The schemas whose tables an archive holds, read from its table of contents (which also proves it readable). */
async function archiveSchemas(file: string): Promise<string[]> {
  let list: string;
  try {
    list = await run(findPgProgram('pg_restore'), ['--list', file], process.env);
  } catch (err) {
    throw new BackupError(`${file} is not a readable pg_dump archive (${(err as Error).message})`);
  }
  const schemas = new Set<string>();
  for (const line of list.split('\n')) {
    const m = /^\d+; \d+ \d+ TABLE (\S+) \S+ /.exec(line);
    if (m) schemas.add(m[1]!);
  }
  return [...schemas];
}

/** The migrations recorded in an archive: the rows of its kysely_migration table, in COPY text form. */
async function archiveMigrations(file: string): Promise<string[] | null> {
  const text = await run(
    findPgProgram('pg_restore'),
    ['--data-only', '--table=kysely_migration', '--file=-', file],
    process.env,
  );
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^COPY \S*kysely_migration \(/.test(l));
  if (start < 0) return null;
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '\\.') break;
    names.push(line.split('\t')[0]!);
  }
  return names;
}

async function backupPostgres(url: string, out: string, schema: string | undefined): Promise<void> {
  const pgDump = findPgProgram('pg_dump');
  const { dbname, env } = libpqTarget(url);
  const partial = `${out}.partial-${process.pid}`;
  try {
    await run(
      pgDump,
      [
        '--format=custom',
        '--no-password',
        `--file=${partial}`,
        ...(schema ? [`--schema=${schema}`] : []),
        `--dbname=${dbname}`,
      ],
      env,
    );
    const schemas = await archiveSchemas(partial);
    if (!schemas.length) {
      throw new BackupError(`${shownUrl(url)}${schema ? ` (schema ${schema})` : ''} has no tables to back up`);
    }
    syncFile(partial);
    renameSync(partial, out);
    syncDirectory(dirname(out));
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}

async function restorePostgres(opts: RestoreOptions): Promise<void> {
  const schemas = await archiveSchemas(opts.file);
  const names = await archiveMigrations(opts.file);
  if (!schemas.length || !names) {
    throw new BackupError(`${opts.file} is not a backup of the console's database (it has no migrations)`);
  }
  unknownMigrations(names, 'postgres', opts.file);
  if (opts.schema && (schemas.length !== 1 || schemas[0] !== opts.schema)) {
    throw new BackupError(
      `${opts.file} holds schema ${schemas.join(', ')}, not ${opts.schema}: a dump restores into the schema it was taken from`,
    );
  }

  const client = new pg.Client({ connectionString: opts.url });
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(`cannot connect to ${shownUrl(opts.url)}: ${(err as Error).message}`);
  }
  try {
    // A server still connected would go on writing into tables the restore drops and makes anew.
    const others = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    const connected = Number(others.rows[0]?.n ?? 0);
    if (connected) {
      throw new BackupError(
        `${connected} other connections are open to ${shownUrl(opts.url)} (is a server running on it?); stop them first`,
      );
    }
    // Migrations write the platform company (id 1) into every new database: that alone is still empty.
    const tables = await client.query<{ schema: string; name: string }>(
      `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = any($1) and c.relkind in ('r', 'p') and not c.relispartition
         and c.relname not in ('kysely_migration', 'kysely_migration_lock')
       order by 1, 2`,
      [schemas],
    );
    const held: string[] = [];
    for (const t of tables.rows) {
      const ref = `${client.escapeIdentifier(t.schema)}.${client.escapeIdentifier(t.name)}`;
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from (select 1 from ${ref} limit 2) x`);
      const n = Number(rows[0]?.n ?? 0);
      if (n > (t.name === 'company' ? 1 : 0)) held.push(`${t.schema}.${t.name}`);
    }
    if (held.length && !opts.force) {
      throw new BackupError(
        `${shownUrl(opts.url)} already holds data (${held.slice(0, 5).join(', ')}${held.length > 5 ? ', …' : ''}); ` +
          '--force replaces it with the backup',
      );
    }
  } finally {
    await client.end();
  }

  await runRestore(opts.file, opts.url);
}

const unquote = (name: string) => name.replaceAll('"', '');

/**
 * The statements of `pg_restore --clean --if-exists` that drop what the archive is about to create, less those
 * PostgreSQL refuses inside a partitioned table: pg_restore drops each partition's primary key and indexes on
 * their own, which are the parent's and go with it (and with the partition's own DROP TABLE).
 */
async function cleanStatements(file: string, list: string): Promise<string> {
  const partitions = new Set<string>();
  const attachedIndexes = new Set<string>();
  for (const line of list.split('\n')) {
    const m = /^\d+; \d+ \d+ (TABLE|INDEX) ATTACH (\S+) (\S+) /.exec(line);
    if (m) (m[1] === 'TABLE' ? partitions : attachedIndexes).add(`${m[2]}.${m[3]}`);
  }
  const script = await run(
    findPgProgram('pg_restore'),
    ['--clean', '--if-exists', '--schema-only', '--no-owner', '--file=-', file],
    process.env,
  );
  const lines = script.split('\n');
  const end = lines.findIndex((l) => l.startsWith('CREATE '));
  return lines
    .slice(0, end < 0 ? lines.length : end)
    .filter((line) => {
      if (!/^(DROP|ALTER) /.test(line)) return false;
      const constraint = /^ALTER TABLE IF EXISTS ONLY (\S+) DROP CONSTRAINT IF EXISTS (\S+);$/.exec(line);
      if (constraint) return !partitions.has(unquote(constraint[1]!));
      const index = /^DROP INDEX IF EXISTS (\S+);$/.exec(line);
      if (index) return !attachedIndexes.has(unquote(index[1]!));
      return true;
    })
    .join('\n');
}

/**
 * The archive's clean statements, then its whole content, through psql in one transaction that stops at the
 * first error and commits only once pg_restore has read the whole archive: the target is the backup, or as it
 * was.
 */
async function runRestore(file: string, url: string): Promise<void> {
  const pgRestore = findPgProgram('pg_restore');
  // psql of the same installation: it understands what that pg_restore writes.
  const psqlBeside = join(dirname(pgRestore), 'psql');
  const psql = isExecutable(psqlBeside) ? psqlBeside : findPgProgram('psql');
  const list = await run(pgRestore, ['--list', file], process.env);
  const clean = await cleanStatements(file, list);
  const { dbname, env } = libpqTarget(url);
  const reader = spawn(pgRestore, ['--no-owner', '--file=-', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const writer = spawn(
    psql,
    ['--no-psqlrc', '--quiet', '--set=ON_ERROR_STOP=1', '--no-password', `--dbname=${dbname}`],
    {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  const said = { reader: '', writer: '' };
  reader.stderr.on('data', (chunk: Buffer) => (said.reader += chunk.toString()));
  writer.stderr.on('data', (chunk: Buffer) => (said.writer += chunk.toString()));
  // A psql that stopped at an error closes its input: its exit code reports that, not a failed write.
  writer.stdin.on('error', () => undefined);
  const ended = (child: ChildProcess) =>
    new Promise<number>((done) => {
      child.once('error', () => done(-1));
      child.once('close', (code) => done(code ?? -1));
    });
  const writerEnded = ended(writer);
  writer.stdin.write(`BEGIN;\n${clean}\n`);
  reader.stdout.pipe(writer.stdin, { end: false });
  const readerCode = await ended(reader);
  // Without COMMIT, psql's session ends at the end of its input and PostgreSQL rolls the transaction back.
  writer.stdin.end(readerCode === 0 ? 'COMMIT;\n' : '');
  const writerCode = await writerEnded;
  if (readerCode !== 0) {
    throw new BackupError(
      `pg_restore failed, nothing was changed: ${firstLine(said.reader) || `exit code ${readerCode}`}`,
    );
  }
  if (writerCode !== 0) {
    const line = said.writer.split('\n').find((l) => /ERROR|FATAL|error:/.test(l)) ?? firstLine(said.writer);
    throw new BackupError(
      `the restore failed, nothing was changed: ${line.trim() || `psql exited with ${writerCode}`}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------

export async function backupDatabase(opts: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  const kind: DbKind = isPostgresUrl(opts.url) ? 'postgres' : 'sqlite';
  if (kind === 'sqlite' && opts.schema) throw new BackupError('--schema is for PostgreSQL only');
  const out = opts.out ?? join(opts.dataDir, 'backups', `console-${timeStamp()}.${kind === 'sqlite' ? 'db' : 'dump'}`);
  if (existsSync(out)) throw new BackupError(`${out} exists already`);
  mkdirSync(dirname(out), { recursive: true });
  if (kind === 'sqlite') await backupSqlite(opts.url, out);
  else await backupPostgres(opts.url, out, opts.schema);
  return { kind, file: out, bytes: statSync(out).size, ms: Date.now() - started };
}

export async function restoreDatabase(opts: RestoreOptions): Promise<RestoreResult> {
  const started = Date.now();
  const kind: DbKind = isPostgresUrl(opts.url) ? 'postgres' : 'sqlite';
  const holds = backupKind(opts.file);
  if (holds !== kind) {
    throw new BackupError(
      holds === 'sqlite'
        ? `${opts.file} is a SQLite backup but DATABASE_URL is PostgreSQL (npm run migrate-data copies SQLite into PostgreSQL)`
        : `${opts.file} is a PostgreSQL backup but the configured database is a SQLite file`,
    );
  }
  if (kind === 'sqlite') {
    if (opts.schema) throw new BackupError('--schema is for PostgreSQL only');
    const setAside = await restoreSqlite(opts.url, opts.file, new Date());
    return { kind, ...(setAside ? { setAside } : {}), ms: Date.now() - started };
  }
  await restorePostgres(opts);
  return { kind, ms: Date.now() - started };
}

/** What a command names the database by. */
export function describeTarget(url: string, schema?: string): string {
  return isPostgresUrl(url) ? `${shownUrl(url)}${schema ? ` (schema ${schema})` : ''}` : sqliteFile(url);
}

/** Runs a command's main, printing a refusal as its one line and exiting non-zero on any failure. */
export function runCommand(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err instanceof BackupError ? err.message : err);
    process.exit(1);
  });
}

const USAGE = `Usage: npm run backup -- [--out <file>] [--schema <name>]

Backs up the server's database (DATA_DIR / DATABASE_URL) while the server runs.
  SQLite       an online copy of the file, checked (integrity_check) before it gets its name
  PostgreSQL   pg_dump --format=custom of the database (pg_dump from PATH or /usr/lib/postgresql/*/bin)
  --out        the backup file (default <DATA_DIR>/backups/console-<UTC time>.db or .dump)
  --schema     PostgreSQL: this schema only (default: the whole database)`;

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      schema: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const base = process.env.INIT_CWD ?? process.cwd();
  const result = await backupDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    ...(values.out ? { out: resolve(base, values.out) } : {}),
    ...(values.schema ? { schema: values.schema } : {}),
  });
  console.log(
    `Backed up ${describeTarget(config.databaseUrl, values.schema)} to ${result.file} ` +
      `(${describeSize(result.bytes)}) in ${(result.ms / 1000).toFixed(1)} s`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) runCommand(main);
