// Follows ingestion from its transport: the data messages handed to it and the acks it sends back. From them,
// how many snapshots wait for their ack (queued, being stored, or stored past a hole in the seqs) and how long
// each waited. Ingestion itself is not touched; the acks are what a module sees of it.
import type { DeviceTransport } from './transport.ts';

/** A snapshot not acked after this long is forgotten here (a module whose set was deleted, say). */
const FORGET_AFTER_MS = 10 * 60_000;
/** Beyond this many waiting snapshots, new ones are not followed (memory stays bounded). */
const MAX_FOLLOWED = 200_000;

export interface AckWatch {
  /** The transport to give ingestion. */
  transport: DeviceTransport;
  /** Snapshots received and not acked yet. */
  pending(): number;
  /** Called for every acked snapshot with how long it waited for its ack. */
  onAcked(listener: (waitedMs: number) => void): void;
  /** Stops following the modules this instance no longer owns (after the cluster's members changed). */
  keepOnly(owns: (modemKey: string) => boolean): void;
  close(): void;
}

/** The seq of a data message: modules write it first, so the head of the payload is enough. */
function seqOf(payload: Buffer): number | undefined {
  const head = /"seq"\s*:\s*(\d+)/.exec(payload.toString('latin1', 0, Math.min(payload.length, 64)));
  if (head) return Number(head[1]);
  try {
    const seq = (JSON.parse(payload.toString('utf8')) as { seq?: unknown }).seq;
    return typeof seq === 'number' ? seq : undefined;
  } catch {
    return undefined; // refused by ingestion as well
  }
}

export function watchAcks(transport: DeviceTransport): AckWatch {
  const waiting = new Map<string, { seq: number; at: number }[]>();
  const listeners: ((waitedMs: number) => void)[] = [];
  let count = 0;

  const acked = (modemKey: string, payload: string) => {
    const list = waiting.get(modemKey);
    const upTo = Number(/"upTo"\s*:\s*(-?\d+)/.exec(payload)?.[1]);
    if (!list || !Number.isFinite(upTo)) return;
    const now = Date.now();
    const left = list.filter((entry) => {
      if (entry.seq > upTo) return true;
      for (const listener of listeners) listener(now - entry.at);
      return false;
    });
    count -= list.length - left.length;
    if (left.length) waiting.set(modemKey, left);
    else waiting.delete(modemKey);
  };

  const sweep = setInterval(() => {
    const oldest = Date.now() - FORGET_AFTER_MS;
    for (const [modemKey, list] of waiting) {
      const left = list.filter((entry) => entry.at >= oldest);
      count -= list.length - left.length;
      if (left.length) waiting.set(modemKey, left);
      else waiting.delete(modemKey);
    }
  }, 30_000);
  sweep.unref();

  return {
    transport: {
      get port() {
        return transport.port;
      },
      onMessage(handler) {
        transport.onMessage((modemKey, channel, payload) => {
          if (channel === 'data' && count < MAX_FOLLOWED) {
            const seq = seqOf(payload);
            if (seq !== undefined) {
              let list = waiting.get(modemKey);
              if (!list) waiting.set(modemKey, (list = []));
              list.push({ seq, at: Date.now() });
              count++;
            }
          }
          return handler(modemKey, channel, payload);
        });
      },
      publish(modemKey, channel, payload, options) {
        if (channel === 'ack') acked(modemKey, payload);
        return transport.publish(modemKey, channel, payload, options);
      },
      connected: (modemKey) => transport.connected(modemKey),
      close: () => transport.close(),
    },
    pending: () => count,
    onAcked: (listener) => void listeners.push(listener),
    keepOnly(owns) {
      for (const [modemKey, list] of waiting) {
        if (owns(modemKey)) continue;
        count -= list.length;
        waiting.delete(modemKey);
      }
    },
    close: () => clearInterval(sweep),
  };
}
