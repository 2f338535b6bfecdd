// Protocol documents (register maps) as the server uses them: the published version of each protocol,
// compiled once into its decoder and poll blocks. The seed layouts S and G (gensets) and the layout E documents
// (a storage station's PCS, BMS, grid meter and PV inverter) are stored on first start.
import {
  compileDecoder,
  derivePollBlocks,
  layoutEBms,
  layoutEMeter,
  layoutEPcs,
  layoutEPv,
  layoutG,
  layoutS,
  protocolDocumentSchema,
  type PollBlock,
  type ProtocolDecoder,
  type ProtocolDocument,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';

export interface CompiledProtocol {
  key: string;
  version: number;
  doc: ProtocolDocument;
  decode: ProtocolDecoder;
  blocks: PollBlock[];
  /** Item metadata by key, for pushes and lists. */
  items: Map<string, ProtocolDocument['items'][number]>;
}

export const SEED_PROTOCOLS: ProtocolDocument[] = [layoutS, layoutG, layoutEPcs, layoutEBms, layoutEMeter, layoutEPv];

export async function seedProtocols(db: Db) {
  for (const doc of SEED_PROTOCOLS) {
    const exists = await db.selectFrom('protocol').select('id').where('protocol_key', '=', doc.key).executeTakeFirst();
    if (exists) continue;
    const now = Date.now();
    await db
      .insertInto('protocol')
      .values({
        protocol_key: doc.key,
        version: doc.version,
        name: doc.name['en-US'],
        document: JSON.stringify(doc),
        status: 'published',
        created_at: now,
        published_at: now,
      })
      .execute();
  }
}

export function compileProtocol(doc: ProtocolDocument): CompiledProtocol {
  return {
    key: doc.key,
    version: doc.version,
    doc,
    decode: compileDecoder(doc),
    blocks: derivePollBlocks(doc),
    items: new Map(doc.items.map((i) => [i.key, i])),
  };
}

export function createProtocolStore(db: Db) {
  const cache = new Map<string, Promise<CompiledProtocol | undefined>>();
  /** The same, once loaded: ingestion looks protocols up for every message and need not wait for a promise. */
  const loaded = new Map<string, CompiledProtocol>();

  async function load(key: string): Promise<CompiledProtocol | undefined> {
    const row = await db
      .selectFrom('protocol')
      .select(['document'])
      .where('protocol_key', '=', key)
      .where('status', '=', 'published')
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    return compileProtocol(protocolDocumentSchema.parse(JSON.parse(row.document)));
  }

  return {
    /** The published version of a protocol, compiled once and kept until `invalidate`. */
    get(key: string): Promise<CompiledProtocol | undefined> {
      let p = cache.get(key);
      if (!p) {
        const loading = load(key);
        p = loading;
        cache.set(key, loading);
        loading.then(
          (compiled) => {
            if (compiled && cache.get(key) === loading) loaded.set(key, compiled);
          },
          () => cache.delete(key),
        );
      }
      return p;
    },
    /** The published version if it is loaded already (else undefined: use `get`). */
    peek(key: string): CompiledProtocol | undefined {
      return loaded.get(key);
    },
    invalidate(key?: string) {
      if (key) {
        cache.delete(key);
        loaded.delete(key);
      } else {
        cache.clear();
        loaded.clear();
      }
    },
  };
}
export type ProtocolStore = ReturnType<typeof createProtocolStore>;
