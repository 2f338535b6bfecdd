// A module changes hands between instances in two steps: while a new instance joins, the old owner keeps the
// module until it has written what it holds and said so (`settle`), and only then does the new one take it.
// Instances learn of each other a poll apart; if both took the module in that second, each would keep its own
// rollups of the set and write them over the other's (samples stored but missing from the hourly counts).
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Redis } from 'ioredis';
import { ownerOf, startCluster, type Cluster } from '../src/modules/devices/cluster.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = pino({ level: 'silent' });

async function redisUp(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const started: Cluster[] = [];
afterEach(async () => {
  for (const c of started.splice(0)) await c.close();
});

/** Starts an instance that, like the server, settles once it has handed over for the members it sees. */
async function instance(namespace: string, instanceId: string, handOver: () => Promise<void>) {
  const c = await startCluster({ redisUrl: REDIS_URL, namespace, instanceId, log });
  started.push(c);
  c.onMembersChanged(() => {
    const view = c.members();
    void handOver().then(() => {
      if (c.members().join() === view.join()) c.settle(view);
    });
  });
  c.settle(c.members());
  return c;
}

describe.runIf(await redisUp())('ownership of modules between instances', () => {
  it('never lets two instances own a module while one joins; the old owner lets go only after writing', async () => {
    const namespace = `test-own-${randomBytes(4).toString('hex')}`;
    // a module key that goes to the joining instance
    const key = Array.from({ length: 100 }, (_, i) => `M${i}`).find((k) => ownerOf(['A', 'B'], k) === 'B')!;
    let written = false;
    let release!: () => void;
    const writing = new Promise<void>((resolve) => (release = resolve));
    const a = await instance(namespace, 'A', async () => {
      await writing; // what A holds of the module is being written
      written = true;
    });
    expect(a.owns(key)).toBe(true);

    const b = await instance(namespace, 'B', async () => undefined);
    expect(b.assigned(key), 'B is where the module goes').toBe(true);
    // Until A has seen B, written and let go, B holds the module's messages and A alone owns it; sampled on every
    // turn of the event loop for three polls.
    let both = 0;
    let bOwnedBeforeWritten = 0;
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      if (a.owns(key) && b.owns(key)) both++;
      if (b.owns(key) && !written) bOwnedBeforeWritten++;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(a.members()).toEqual(['A', 'B']);
    expect(b.owns(key), 'B does not take the module while A still writes').toBe(false);
    expect(a.owns(key), 'A no longer takes new messages of it').toBe(false);

    release();
    let taken = false;
    const deadline = Date.now() + 5000;
    while (!taken && Date.now() < deadline) {
      if (a.owns(key) && b.owns(key)) both++;
      taken = b.owns(key);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(taken, 'B takes the module once A has let go').toBe(true);
    expect(both, 'moments both owned the module').toBe(0);
    expect(bOwnedBeforeWritten).toBe(0);
    expect(a.owns(key)).toBe(false);
  });

  it('gives the modules of an instance that leaves back to the others at their next poll', async () => {
    // (one killed without a word is taken as gone after its stamps stop: test/cluster.test.ts)
    const namespace = `test-own-${randomBytes(4).toString('hex')}`;
    const key = Array.from({ length: 100 }, (_, i) => `M${i}`).find((k) => ownerOf(['A', 'B'], k) === 'B')!;
    const a = await instance(namespace, 'A', async () => undefined);
    const b = await instance(namespace, 'B', async () => undefined);
    await waitUntil(() => b.owns(key), 5000);
    expect(a.owns(key)).toBe(false);
    started.splice(started.indexOf(b), 1);
    await b.close();
    await waitUntil(() => a.owns(key), 5000);
    expect(a.members()).toEqual(['A']);
  });
});

async function waitUntil(ok: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('not within time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
