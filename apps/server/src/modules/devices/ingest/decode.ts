// Decode: from a module's raw message to values. `read` checks a data message as it arrives (a malformed one
// is refused and never queued); `decodeBatch` finds the module and set each queued snapshot is for and turns
// its registers into values, a status and the alarms active, with the set's protocol. Everything a batch
// reads from the database (bindings, protocols, ack states, which resends are stored) is read here, before its transaction opens:
// SQLite has one connection, and a read outside the transaction while it is open would wait for ever.
import { deriveStatus, modemData, readModemData, type ModemData } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import type { CompiledProtocol, ProtocolStore } from '../protocols.ts';
import type { Acks } from './acks.ts';
import type { Sets } from './sets.ts';
import {
  STATUS,
  type ActiveAlarm,
  type Decoded,
  type IngestStats,
  type ModemInfo,
  type Queued,
  type SeenSeqs,
  type SetState,
  type Values,
} from './types.ts';

interface DecoderOptions {
  db: Db;
  sets: Sets;
  protocols: ProtocolStore;
  acks: Acks;
  log: FastifyBaseLogger;
  stats: IngestStats;
}

/** Readings dated further ahead than this are refused (a module's clock may be somewhat off, not a day). */
export const FUTURE_LIMIT_MS = 24 * 60 * 60_000;
/** Seqs looked up per query when telling resends from late arrivals. */
const RESEND_CHUNK = 200;

export function createDecoder({ db, sets, protocols, acks, log, stats }: DecoderOptions) {
  return {
    /** The data message in `payload`, or null (counted and logged) when it is malformed. Throws on bad JSON. */
    read(modemKey: string, payload: Buffer): ModemData | null {
      const json: unknown = JSON.parse(payload.toString('utf8'));
      const message = readModemData(json);
      if (!message) {
        stats.refused++;
        const issues = modemData.safeParse(json).error?.issues.slice(0, 3);
        log.warn({ modem: modemKey, issues }, 'malformed data message refused');
      }
      return message;
    },

    /**
     * The batch's snapshots of known sets, decoded, and the seqs it held per module (stored now or before,
     * they are acked all the same; data for a controller no set is bound to is acked and dropped).
     */
    async decodeBatch(batch: Queued[]): Promise<{ decoded: Decoded[]; seen: SeenSeqs }> {
      const resolved: {
        modem: ModemInfo;
        message: ModemData;
        base: SetState | null;
        protocol: CompiledProtocol | undefined;
      }[] = [];
      // (Cached lookups are taken without awaiting: three awaits per message were a noticeable share.)
      for (const { modemKey, message } of batch) {
        let modem = sets.peekModem(modemKey);
        if (modem === undefined) modem = await sets.modemByKey(modemKey);
        if (!modem) continue;
        let base = sets.peekSet(modem.id, message.port, message.address);
        if (base === undefined) base = await sets.setFor(modem, message.port, message.address);
        let protocol: CompiledProtocol | undefined;
        if (base) protocol = protocols.peek(base.protocolKey) ?? (await protocols.get(base.protocolKey));
        if (!acks.known(modem.id)) await acks.load(modem.id);
        resolved.push({ modem, message, base, protocol });
      }

      // A resend is skipped here, whatever time it carries: the seqs already passed that are really in the
      // table (a seq the ack passed over after a hole is taken if it comes after all). The table's own key
      // cannot tell on PostgreSQL, where it holds the time too (the partition key must be in it).
      const resent = new Set<string>();
      const passed = resolved.filter((r) => acks.passed(r.modem.id, r.message.seq));
      for (let i = 0; i < passed.length; i += RESEND_CHUNK) {
        const chunk = passed.slice(i, i + RESEND_CHUNK);
        const rows = await db
          .selectFrom('sample')
          .select(['modem_id', 'seq'])
          .where((eb) =>
            eb.or(chunk.map((r) => eb.and([eb('modem_id', '=', r.modem.id), eb('seq', '=', r.message.seq)]))),
          )
          .execute();
        for (const row of rows) resent.add(`${row.modem_id}|${row.seq}`);
      }

      // Decoding needs no database: done first, so that the samples go in with one statement per hundred.
      const seen: SeenSeqs = new Map();
      const decoded: Decoded[] = [];
      const now = Date.now();
      for (const { modem, message, base, protocol } of resolved) {
        let seqs = seen.get(modem.id);
        if (!seqs) seen.set(modem.id, (seqs = { key: modem.key, seqs: [] }));
        seqs.seqs.push(message.seq);
        const key = `${modem.id}|${message.seq}`;
        if (resent.has(key)) {
          stats.duplicates++;
          continue;
        }
        // (a seq twice in one batch: the first is taken)
        resent.add(key);
        if (message.ts > now + FUTURE_LIMIT_MS) {
          // A module whose clock runs far ahead: its reading would become the set's latest for good and every
          // true one after it an older resend. Acked and dropped, and said.
          stats.refused++;
          log.warn({ modem: modem.key, seq: message.seq, ts: message.ts }, 'data dated far in the future refused');
          continue;
        }
        if (!base) {
          log.warn(
            { modem: modem.key, port: message.port, address: message.address },
            'data for a controller no set is bound to',
          );
          continue;
        }
        if (!protocol) {
          log.error({ protocol: base.protocolKey }, 'set uses a protocol that is not published');
          continue;
        }
        let values: Values = {};
        let status: number = STATUS.offline;
        let active: ActiveAlarm[] = [];
        if (!message.error) {
          values = protocol.decode(message.blocks);
          const summary = deriveStatus(protocol.doc, values);
          status = summary.status;
          active = summary.activeAlarms;
        }
        decoded.push({ modem, message, base, values, status, active, json: JSON.stringify(values) });
      }
      return { decoded, seen };
    },
  };
}
