// Which server tests run a second time on PostgreSQL, and on which server. The whole server suite runs on the
// embedded SQLite; on PostgreSQL run the files whose behaviour depends on the database: the code with a dialect of
// its own (raw SQL, migrations, partitions, upserts, locks, time buckets, prepared statements), the lists, counts,
// scopes and rollups built in SQL, and what two instances share through it. What a file checks of the HTTP
// conventions, validation, authentication, the MQTT contract, the modules and simulators, video or the log does
// not change with the database (the repositories reach both through one query builder, and 64-bit numbers are read
// as numbers on both), so it runs once. TEST_POSTGRES=all runs every server file on PostgreSQL too.
/** Test files, relative to apps/server, run on PostgreSQL as the project `server-postgres`. */
export const DATABASE_FILES = [
  // PostgreSQL's own: partitions and retention, the SQLite → PostgreSQL copy, shared rate limits, two instances
  'test/partitions.test.ts',
  'test/database-open.test.ts',
  'test/migrate-data.test.ts',
  'test/cluster.test.ts',
  'test/admin-cluster.test.ts',
  'test/rate-limits.test.ts',
  'test/prepared-query.test.ts',
  'test/backup.test.ts',
  'test/observability.test.ts',
  // ingestion's store: dedup by seq in one transaction, status changes, rollups, subscriptions
  'test/ingest.test.ts',
  'test/pipeline.test.ts',
  'test/subscriptions.test.ts',
  'test/alarms.test.ts',
  'test/alarm-episodes.test.ts',
  'test/alarm-analytics.test.ts',
  'test/alarm-rules.test.ts',
  // history, rollups and what is read from them
  'test/history.test.ts',
  'test/tracks.test.ts',
  'test/runtime-export.test.ts',
  'test/genset-export.test.ts',
  'test/reports.test.ts',
  'test/iotcard.test.ts',
  // lists, counts and data scopes built in SQL
  'test/gensets.test.ts',
  'test/dashboard.test.ts',
  'test/data-scope.test.ts',
  'test/access-matrix.test.ts',
  'test/access-tenants.test.ts',
  'test/groups.test.ts',
  'test/group-commands.test.ts',
  'test/maintenance.test.ts',
  'test/transfers.test.ts',
  'test/repairs.test.ts',
  'test/ota.test.ts',
  'test/sites.test.ts',
  'test/site-ems.test.ts',
  'test/demo-stations.test.ts',
  'test/notifications.test.ts',
  // accounts, companies, roles and their administration (case-insensitive lookups, anonymising, unique keys)
  'test/account.test.ts',
  'test/admin-users.test.ts',
  'test/roles-members.test.ts',
  'test/permissions.test.ts',
  // the authority rule of administrative writes and registration's applications, and its property-based search
  // (on PostgreSQL fewer sequences than the 2,000 on SQLite, AUTHORITY_PG_RUNS; each run prints its count)
  'test/authority.test.ts',
  'test/authority-property.test.ts',
  'test/remote-config.test.ts',
  'test/protocols.test.ts',
  'test/protocol-versions.test.ts',
];

export const POSTGRES_FILES =
  process.env.TEST_POSTGRES === 'all' ? ['src/**/*.test.ts', 'test/**/*.test.ts'] : DATABASE_FILES;

/** The PostgreSQL the database tests run on a second time: TEST_DATABASE_URL (.ci/run sets it when one answers). */
export function postgresUrl(): string | undefined {
  if (process.env.TEST_POSTGRES === '0') return undefined;
  return process.env.TEST_DATABASE_URL || undefined;
}
