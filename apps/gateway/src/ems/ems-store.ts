// The EMS's memory on the module's disk (tables beside the outbox in its database): the tactic it accepted last
// and the demand-response events still to come, so that after a power cut the station runs its tactic again
// before the module has reached the cloud.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { emsDemandResponse, emsTactic, type EmsDemandResponse, type EmsTactic } from '@genset/protocol';

/** Events kept at most; the ones ending first go when there are more. */
const MAX_EVENTS = 256;

export class EmsStore {
  private readonly db: DatabaseSync;
  private readonly getTacticStatement: StatementSync;
  private readonly putTacticStatement: StatementSync;
  private readonly eventsStatement: StatementSync;
  private readonly putEventStatement: StatementSync;
  private readonly pruneStatement: StatementSync;

  /** `file`: the module's outbox database (its own connection; the outbox keeps the file in WAL mode). */
  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.db.exec(`
      PRAGMA busy_timeout = 5000;
      PRAGMA synchronous = FULL;
      CREATE TABLE IF NOT EXISTS ems_tactic (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL,
        body TEXT NOT NULL,
        accepted_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS ems_demand_response (
        id TEXT PRIMARY KEY,
        start_ts INTEGER NOT NULL,
        end_ts INTEGER NOT NULL,
        body TEXT NOT NULL
      );
    `);
    this.getTacticStatement = this.db.prepare('SELECT body FROM ems_tactic WHERE id = 1');
    this.putTacticStatement = this.db.prepare(
      `INSERT INTO ems_tactic (id, version, body, accepted_at) VALUES (1, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET version = excluded.version, body = excluded.body, accepted_at = excluded.accepted_at`,
    );
    this.eventsStatement = this.db.prepare('SELECT body FROM ems_demand_response ORDER BY start_ts, id');
    this.putEventStatement = this.db.prepare(
      `INSERT INTO ems_demand_response (id, start_ts, end_ts, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET start_ts = excluded.start_ts, end_ts = excluded.end_ts, body = excluded.body`,
    );
    this.pruneStatement = this.db.prepare(
      `DELETE FROM ems_demand_response WHERE end_ts <= ?
         OR id NOT IN (SELECT id FROM ems_demand_response ORDER BY end_ts DESC LIMIT ${MAX_EVENTS})`,
    );
  }

  /** The tactic accepted last, or undefined (none yet, or one this firmware cannot read any more). */
  tactic(): EmsTactic | undefined {
    const row = this.getTacticStatement.get() as { body: string } | undefined;
    if (!row) return undefined;
    const parsed = emsTactic.safeParse(JSON.parse(row.body));
    return parsed.success ? parsed.data : undefined;
  }

  saveTactic(tactic: EmsTactic, now = Date.now()): void {
    this.putTacticStatement.run(tactic.version, JSON.stringify(tactic), now);
  }

  /** Events that have not ended by `now`, earliest first. */
  events(now = Date.now()): EmsDemandResponse[] {
    this.pruneStatement.run(now);
    const rows = this.eventsStatement.all() as { body: string }[];
    return rows.flatMap((row) => {
      const parsed = emsDemandResponse.safeParse(JSON.parse(row.body));
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** Adds an event or replaces the one with its id (a cancellation is an event that ends now). */
  saveEvent(event: EmsDemandResponse, now = Date.now()): void {
    this.putEventStatement.run(event.id, event.startTs, event.endTs, JSON.stringify(event));
    this.pruneStatement.run(now);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
