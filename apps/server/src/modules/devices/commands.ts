// Requests down to a module (writes, reads, restart) and their replies. The HTTP call that asked waits for
// the reply; no reply in time is a timeout, never a success. Every request and its outcome are stored.
import { randomUUID } from 'node:crypto';
import { modemReply, type ModemReply, type ModemRequest } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { DeviceTransport } from './transport.ts';

/** A request as callers write it: the dispatcher adds the id. */
export type ModemRequestBody = ModemRequest extends infer R ? (R extends ModemRequest ? Omit<R, 'id'> : never) : never;

export interface CommandOutcome {
  status: 'ok' | 'failed' | 'timeout';
  reply?: ModemReply;
  requestId: string;
}

interface Pending {
  resolve: (reply: ModemReply) => void;
  modemKey: string;
}

export function createCommandDispatcher(opts: { db: Db; transport: DeviceTransport; log: FastifyBaseLogger }) {
  const { db, transport, log } = opts;
  const pending = new Map<string, Pending>();
  /** Hear every well-formed reply, waited for or not (firmware upgrades follow their progress replies). */
  const listeners = new Set<(modemKey: string, reply: ModemReply) => void>();

  return {
    async send(input: {
      modemKey: string;
      modemId: number;
      gensetId: number | null;
      userId: number | null;
      name: string;
      request: ModemRequestBody;
      timeoutMs: number;
    }): Promise<CommandOutcome> {
      const requestId = randomUUID();
      const request = { ...input.request, id: requestId, timeoutMs: input.timeoutMs } as ModemRequest;
      await db
        .insertInto('command')
        .values({
          request_id: requestId,
          genset_id: input.gensetId,
          modem_id: input.modemId,
          user_id: input.userId,
          kind: request.kind,
          name: input.name,
          request: JSON.stringify(request),
          status: 'pending',
          reply: null,
          created_at: Date.now(),
          finished_at: null,
        })
        .execute();
      const replied = new Promise<ModemReply | null>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(requestId);
          resolve(null);
        }, input.timeoutMs);
        pending.set(requestId, {
          modemKey: input.modemKey,
          resolve: (reply) => {
            clearTimeout(timer);
            pending.delete(requestId);
            resolve(reply);
          },
        });
      });
      await transport.publish(input.modemKey, 'request', JSON.stringify(request));
      const reply = await replied;
      const status = reply === null ? 'timeout' : reply.ok ? 'ok' : 'failed';
      await db
        .updateTable('command')
        .set({ status, reply: reply ? JSON.stringify(reply) : null, finished_at: Date.now() })
        .where('request_id', '=', requestId)
        .where('status', '=', 'pending')
        .execute();
      return reply ? { status, reply, requestId } : { status, requestId };
    },

    /** Hears every reply of every module from now on; returns the way to stop. */
    listen(listener: (modemKey: string, reply: ModemReply) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** A reply from a module; one that comes after its timeout is still recorded as what happened. */
    receive(modemKey: string, payload: unknown) {
      const parsed = modemReply.safeParse(payload);
      if (!parsed.success) {
        log.warn({ modem: modemKey }, 'malformed reply refused');
        return;
      }
      const reply = parsed.data;
      for (const listener of listeners) listener(modemKey, reply);
      const waiting = pending.get(reply.id);
      if (waiting && waiting.modemKey === modemKey) {
        waiting.resolve(reply);
        return;
      }
      void db
        .updateTable('command')
        .set({ status: reply.ok ? 'late-ok' : 'late-failed', reply: JSON.stringify(reply), finished_at: Date.now() })
        .where('request_id', '=', reply.id)
        .where('status', '=', 'timeout')
        .execute()
        .catch((err: unknown) => log.warn({ err }, 'late reply not recorded'));
    },
  };
}
export type CommandDispatcher = ReturnType<typeof createCommandDispatcher>;
