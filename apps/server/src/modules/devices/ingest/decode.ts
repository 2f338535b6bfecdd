// Decode: from a module's raw message to values. `read` checks a data message as it arrives (a malformed one
// is refused and never queued); `decodeBatch` finds the module and set each queued snapshot is for and turns
// its registers into values, a status and the alarms active, with the set's protocol. Everything a batch
// reads from the database (bindings, protocols, ack states) is read here, before its transaction opens:
// SQLite has one connection, and a read outside the transaction while it is open would wait for ever.
import { deriveStatus, modemData, readModemData, type ModemData } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
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
  sets: Sets;
  protocols: ProtocolStore;
  acks: Acks;
  log: FastifyBaseLogger;
  stats: IngestStats;
}

export function createDecoder({ sets, protocols, acks, log, stats }: DecoderOptions) {
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

      // Decoding needs no database: done first, so that the samples go in with one statement per hundred.
      const seen: SeenSeqs = new Map();
      const decoded: Decoded[] = [];
      for (const { modem, message, base, protocol } of resolved) {
        let seqs = seen.get(modem.id);
        if (!seqs) seen.set(modem.id, (seqs = { key: modem.key, seqs: [] }));
        seqs.seqs.push(message.seq);
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
