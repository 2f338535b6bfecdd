// The outbox on a real SQLite file: seq survives restarts, acks forget, and a full outbox drops its oldest loudly.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayLogger } from './logger.ts';
import { Outbox } from './outbox.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function outboxFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'outbox-test-'));
  dirs.push(dir);
  return join(dir, 'nested', 'm1.outbox.sqlite');
}

function recordingLogger(): GatewayLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    info: () => {},
    warn: (message) => warnings.push(message),
    error: (message) => warnings.push(message),
  };
}

describe('outbox', () => {
  it('numbers messages, reads them in order and keeps them and the seq across a reopen', async () => {
    const file = await outboxFile();
    const logger = recordingLogger();
    const first = new Outbox(file, { maxMessages: 100, logger });
    for (let i = 0; i < 5; i++) first.append((seq) => JSON.stringify({ seq, i }));
    expect(first.readAfter(2, 2)).toEqual([
      { seq: 3, payload: '{"seq":3,"i":2}' },
      { seq: 4, payload: '{"seq":4,"i":3}' },
    ]);
    expect(first.acknowledge(2)).toBe(2);
    first.close();

    const second = new Outbox(file, { maxMessages: 100, logger });
    expect(second.size).toBe(3);
    expect(second.readAfter(0, 10).map((message) => message.seq)).toEqual([3, 4, 5]);
    // Acked down to nothing, the next seq still follows the last one ever given.
    second.acknowledge(5);
    expect(second.size).toBe(0);
    second.close();
    const third = new Outbox(file, { maxMessages: 100, logger });
    expect(third.append((seq) => String(seq))).toBe(6);
    third.close();
  });

  it('numbers above seqs taken elsewhere, and never goes back below its own', async () => {
    const file = await outboxFile();
    const logger = recordingLogger();
    const first = new Outbox(file, { maxMessages: 100, logger, seqsTakenUpTo: 4320 });
    expect(first.append((seq) => String(seq))).toBe(4321);
    first.close();
    // a lower floor later (or none) changes nothing: the module's own seqs only rise
    const second = new Outbox(file, { maxMessages: 100, logger, seqsTakenUpTo: 10 });
    expect(second.append((seq) => String(seq))).toBe(4322);
    second.close();
  });

  it('drops the oldest messages when full, and says so', async () => {
    const logger = recordingLogger();
    const outbox = new Outbox(await outboxFile(), { maxMessages: 10, logger });
    for (let i = 0; i < 15; i++) outbox.append((seq) => String(seq));
    expect(outbox.size).toBe(10);
    expect(outbox.dropped).toBe(5);
    expect(outbox.readAfter(0, 100).map((message) => message.seq)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/outbox full \(10 messages\): dropped 1 oldest/);
    outbox.close();
  });
});
