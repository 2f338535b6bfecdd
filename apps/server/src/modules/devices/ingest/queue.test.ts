import { describe, expect, it } from 'vitest';
import type { ModemData } from '@genset/protocol';
import { createIngestQueue, LIVE_LAG_MS } from './queue.ts';

const NOW = 1_800_000_000_000;
const snap = (seq: number, ts: number) => ({ seq, ts, port: 'port1', address: 1, blocks: [] }) as ModemData;
const seqs = (batch: { modemKey: string; message: ModemData }[]) => batch.map((q) => `${q.modemKey}${q.message.seq}`);

describe('the ingestion queue', () => {
  it('takes live data ahead of a day of backlog, and the backlog after it', () => {
    const q = createIngestQueue(() => NOW);
    for (let seq = 1; seq <= 4; seq++) q.push({ modemKey: 'B', message: snap(seq, NOW - 86_400_000 + seq * 60_000) });
    q.push({ modemKey: 'L', message: snap(1, NOW - 1000) });
    q.push({ modemKey: 'L', message: snap(2, NOW) });
    expect(seqs(q.peek(3))).toEqual(['L1', 'L2', 'B1']);
    q.done(q.peek(3));
    expect(q.size).toBe(3);
    expect(seqs(q.peek(10))).toEqual(['B2', 'B3', 'B4']);
  });

  it('keeps a module in order: its live data waits behind its own backlog', () => {
    const q = createIngestQueue(() => NOW);
    q.push({ modemKey: 'B', message: snap(1, NOW - LIVE_LAG_MS - 1) });
    q.push({ modemKey: 'B', message: snap(2, NOW) });
    q.push({ modemKey: 'L', message: snap(7, NOW) });
    expect(seqs(q.peek(3))).toEqual(['L7', 'B1', 'B2']);
    q.done(q.peek(3));
    // once its backlog is taken, the module's data is live again
    q.push({ modemKey: 'B', message: snap(3, NOW) });
    q.push({ modemKey: 'X', message: snap(1, NOW - LIVE_LAG_MS - 1) });
    expect(seqs(q.peek(1))).toEqual(['B3']);
  });

  it('takes out only what a batch held, whatever arrived while it was stored', () => {
    const q = createIngestQueue(() => NOW);
    q.push({ modemKey: 'L', message: snap(1, NOW) });
    q.push({ modemKey: 'B', message: snap(1, 0) });
    q.push({ modemKey: 'B', message: snap(2, 0) });
    const batch = q.peek(2);
    q.push({ modemKey: 'L', message: snap(2, NOW) });
    q.push({ modemKey: 'M', message: snap(1, NOW) });
    q.done(batch);
    expect(seqs(q.peek(10))).toEqual(['L2', 'M1', 'B2']);
  });

  it('says the arrival number of the oldest waiting message, for work queued behind it', () => {
    const q = createIngestQueue(() => NOW);
    q.push({ modemKey: 'B', message: snap(1, 0) });
    const mark = q.last;
    q.push({ modemKey: 'L', message: snap(1, NOW) });
    q.done(q.peek(1)); // the live one
    expect(q.oldest()).toBeLessThanOrEqual(mark);
    q.done(q.peek(1));
    expect(q.oldest()).toBe(Infinity);
  });

  it('lets go of the modules another instance now owns', () => {
    const q = createIngestQueue(() => NOW);
    q.push({ modemKey: 'A', message: snap(1, 0) });
    q.push({ modemKey: 'B', message: snap(1, 0) });
    q.push({ modemKey: 'B', message: snap(2, NOW) });
    q.filter((k) => k === 'A');
    expect(seqs(q.peek(10))).toEqual(['A1']);
    q.done(q.peek(10));
    q.push({ modemKey: 'B', message: snap(3, NOW) });
    expect(q.backlog).toBe(0);
  });
});
