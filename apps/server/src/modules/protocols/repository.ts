// SQL of protocol versions (one row per version of a protocol key) and of what uses them.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ProtocolTable } from '../../db/schema.ts';

export type ProtocolRow = Selectable<ProtocolTable>;

export interface ProtocolListFilter {
  page: number;
  size: number;
  search?: string | undefined;
  status?: string | undefined;
}

/** Escapes LIKE wildcards so a search for "s_1" finds exactly that. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createProtocolRepository(db: Db) {
  return {
    async list(filter: ProtocolListFilter): Promise<{ rows: ProtocolRow[]; total: number }> {
      let query = db.selectFrom('protocol');
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.search) {
        const pattern = likePattern(filter.search);
        // ESCAPE is spelled out: SQLite has no default escape character in LIKE (PostgreSQL uses a backslash).
        query = query.where(
          sql<boolean>`(lower(protocol_key) like ${pattern} escape '\\' or lower(name) like ${pattern} escape '\\')`,
        );
      }
      const count = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await query
        .selectAll()
        .orderBy('protocol_key')
        .orderBy('version', 'desc')
        .limit(filter.size)
        .offset((filter.page - 1) * filter.size)
        .execute();
      return { rows, total: Number(count?.n ?? 0) };
    },

    byId(id: number) {
      return db.selectFrom('protocol').selectAll().where('id', '=', id).executeTakeFirst();
    },

    versionsOf(key: string) {
      return db
        .selectFrom('protocol')
        .select(['id', 'version', 'status', 'created_at', 'published_at'])
        .where('protocol_key', '=', key)
        .orderBy('version', 'desc')
        .execute();
    },

    async keyExists(key: string): Promise<boolean> {
      const row = await db.selectFrom('protocol').select('id').where('protocol_key', '=', key).executeTakeFirst();
      return row !== undefined;
    },

    async maxVersion(key: string): Promise<number> {
      const row = await db
        .selectFrom('protocol')
        .select((eb) => eb.fn.max('version').as('v'))
        .where('protocol_key', '=', key)
        .executeTakeFirst();
      return Number(row?.v ?? 0);
    },

    /** The newest published version: the one sets run on. */
    current(key: string) {
      return db
        .selectFrom('protocol')
        .select(['id', 'version'])
        .where('protocol_key', '=', key)
        .where('status', '=', 'published')
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Ids of the current version of each of these keys. */
    async currentIds(keys: readonly string[]): Promise<Set<number>> {
      if (keys.length === 0) return new Set();
      const rows = await db
        .selectFrom('protocol')
        .select(['id', 'protocol_key', 'version'])
        .where('protocol_key', 'in', [...keys])
        .where('status', '=', 'published')
        .execute();
      const best = new Map<string, { id: number; version: number }>();
      for (const row of rows) {
        const seen = best.get(row.protocol_key);
        if (!seen || row.version > seen.version) best.set(row.protocol_key, row);
      }
      return new Set([...best.values()].map((row) => row.id));
    },

    /** Sets (not deleted) per protocol key. */
    async setCounts(keys: readonly string[]): Promise<Map<string, number>> {
      if (keys.length === 0) return new Map();
      const rows = await db
        .selectFrom('genset')
        .select(['protocol_key', (eb) => eb.fn.countAll<number>().as('n')])
        .where('protocol_key', 'in', [...keys])
        .where('deleted_at', 'is', null)
        .groupBy('protocol_key')
        .execute();
      return new Map(rows.map((row) => [row.protocol_key, Number(row.n)]));
    },

    /** Modules with at least one set on this protocol. */
    async modemKeysUsing(key: string): Promise<string[]> {
      const rows = await db
        .selectFrom('genset')
        .innerJoin('modem', 'modem.id', 'genset.modem_id')
        .select('modem.modem_key')
        .distinct()
        .where('genset.protocol_key', '=', key)
        .where('genset.deleted_at', 'is', null)
        .execute();
      return rows.map((row) => row.modem_key);
    },

    async insert(input: { key: string; version: number; name: string; document: string; status: string }) {
      const row = await db
        .insertInto('protocol')
        .values({
          protocol_key: input.key,
          version: input.version,
          name: input.name,
          document: input.document,
          status: input.status,
          created_at: Date.now(),
          published_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async updateDraft(id: number, name: string, document: string) {
      const result = await db
        .updateTable('protocol')
        .set({ name, document })
        .where('id', '=', id)
        .where('status', '=', 'draft')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async markPublished(id: number) {
      const result = await db
        .updateTable('protocol')
        .set({ status: 'published', published_at: Date.now() })
        .where('id', '=', id)
        .where('status', '=', 'draft')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async remove(id: number) {
      await db.deleteFrom('protocol').where('id', '=', id).execute();
    },
  };
}
export type ProtocolRepository = ReturnType<typeof createProtocolRepository>;
