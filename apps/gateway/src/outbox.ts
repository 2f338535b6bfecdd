// On-disk outbox of `data` messages (node:sqlite, WAL): every message is stored before it is published and
// kept until the cloud acks its seq, so a broker outage, a cloud crash or a module reboot costs no sample.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { errorText, type GatewayLogger } from './logger.ts';

export interface OutboxMessage {
  seq: number;
  payload: string;
}

export interface OutboxOptions {
  /** Past this many messages the oldest are dropped, so a long outage cannot fill the disk. */
  maxMessages: number;
  logger: GatewayLogger;
  /** Seqs up to this one were given out for the module elsewhere: numbering continues above it. */
  seqsTakenUpTo?: number;
}

const SQLITE_FULL = 13;
const DROP_LOG_INTERVAL_MS = 60_000;

export class Outbox {
  private readonly db: DatabaseSync;
  private readonly insertStatement: StatementSync;
  private readonly readAfterStatement: StatementSync;
  private readonly ackStatement: StatementSync;
  private readonly dropOldestStatement: StatementSync;
  private readonly setMetaStatement: StatementSync;
  private readonly getMetaStatement: StatementSync;
  private count: number;
  private last: number;
  private droppedTotal = 0;
  private droppedSinceLog = 0;
  private lastDropLogAt = 0;

  constructor(
    file: string,
    private readonly options: OutboxOptions,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    // FULL rather than NORMAL: a site loses power often, and a sample acknowledged to nobody must survive it.
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = FULL;
      CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    this.insertStatement = this.db.prepare('INSERT INTO outbox (seq, payload) VALUES (?, ?)');
    this.readAfterStatement = this.db.prepare('SELECT seq, payload FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?');
    this.ackStatement = this.db.prepare('DELETE FROM outbox WHERE seq <= ?');
    this.dropOldestStatement = this.db.prepare(
      'DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox ORDER BY seq LIMIT ?) RETURNING seq',
    );
    this.setMetaStatement = this.db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.getMetaStatement = this.db.prepare('SELECT value FROM meta WHERE key = ?');
    const stats = this.db.prepare('SELECT COUNT(*) AS count, MAX(seq) AS last FROM outbox').get() as {
      count: number;
      last: number | null;
    };
    this.count = stats.count;
    // The seq survives an empty outbox through meta, so the cloud never sees a seq twice for different data.
    this.last = Math.max(stats.last ?? 0, Number(this.getMeta('last_seq') ?? 0), options.seqsTakenUpTo ?? 0);
  }

  /** Highest seq ever given out. */
  get lastSeq(): number {
    return this.last;
  }

  /** Messages waiting for an ack. */
  get size(): number {
    return this.count;
  }

  /** Messages dropped unacked because the outbox was full. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Stores one message under the next seq; `build` renders the payload for that seq. Returns the seq. */
  append(build: (seq: number) => string): number {
    try {
      return this.insert(build);
    } catch (error) {
      if ((error as { errcode?: number }).errcode !== SQLITE_FULL) throw error;
      // The disk is full: make room at the old end rather than stop recording the present.
      const room = Math.max(100, Math.ceil(this.count / 100));
      this.options.logger.error(`outbox: disk full (${errorText(error)}); dropping the ${room} oldest messages`);
      this.dropOldest(room);
      return this.insert(build);
    }
  }

  private insert(build: (seq: number) => string): number {
    if (this.count >= this.options.maxMessages) this.dropOldest(this.count - this.options.maxMessages + 1);
    const seq = this.last + 1;
    const payload = build(seq);
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.insertStatement.run(seq, payload);
      this.setMetaStatement.run('last_seq', String(seq));
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    this.last = seq;
    this.count += 1;
    return seq;
  }

  private dropOldest(howMany: number): void {
    const rows = this.dropOldestStatement.all(howMany) as { seq: number }[];
    if (rows.length === 0) return;
    this.count -= rows.length;
    this.droppedTotal += rows.length;
    this.droppedSinceLog += rows.length;
    const now = Date.now();
    // Once a minute at most: while the cloud is unreachable for days every new sample would log otherwise.
    if (now - this.lastDropLogAt >= DROP_LOG_INTERVAL_MS) {
      this.options.logger.warn(
        `outbox full (${this.options.maxMessages} messages): dropped ${this.droppedSinceLog} oldest unacked ` +
          `message(s), now up to seq ${rows.at(-1)?.seq}; the cloud will miss them`,
      );
      this.droppedSinceLog = 0;
      this.lastDropLogAt = now;
    }
  }

  /** Up to `limit` messages with seq above `afterSeq`, oldest first. */
  readAfter(afterSeq: number, limit: number): OutboxMessage[] {
    return this.readAfterStatement.all(afterSeq, limit) as unknown as OutboxMessage[];
  }

  /** Forgets every message up to and including `upTo`; returns how many went. */
  acknowledge(upTo: number): number {
    const removed = Number(this.ackStatement.run(upTo).changes);
    this.count -= removed;
    return removed;
  }

  getMeta(key: string): string | undefined {
    const row = this.getMetaStatement.get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.setMetaStatement.run(key, value);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
