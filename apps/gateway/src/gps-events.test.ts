// A module with a GPS receiver on the move: it reports at once when it has moved far enough since the fix it
// last reported, between its periodic events, and stays quiet while it stands (GPS wander included).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startGateway } from './gateway.ts';
import { silentLogger } from './logger.ts';
import { TestBroker, TestController, waitFor } from './test-support.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Degrees of latitude per metre. */
const PER_M = 1 / 111_195;

it('reports a fix as soon as the module has moved 50 m, and nothing for a few metres of wander', async () => {
  const modemId = 'GW-GPS1';
  const broker = await TestBroker.start({ [modemId]: 'secret-gps' });
  cleanups.push(() => broker.close());
  const controller = await TestController.start();
  cleanups.push(() => controller.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-gps-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const events = await broker.record(modemId, 'event');

  const here = { lat: 41, lon: 29 };
  let reads = 0;
  const gateway = await startGateway(
    {
      modemId,
      secret: 'secret-gps',
      brokerUrl: broker.url,
      dataDir,
      // periodic events far apart: whatever comes sooner is the movement's
      eventRateMs: 3_600_000,
      ports: [{ name: 'port1', host: '127.0.0.1', port: controller.port, controllers: [{ address: 1 }] }],
    },
    {
      logger: silentLogger,
      gpsWatchMs: 50,
      readGps: () => {
        reads++;
        return { ...here };
      },
    },
  );
  cleanups.push(() => gateway.close());

  // the event on connecting carries the first fix
  await waitFor(() => events.messages[0], 'the first event');
  expect(events.messages[0]!.gps).toEqual({ lat: 41, lon: 29 });

  // wander of 10 m, read many times over: no event
  here.lat = 41 + 10 * PER_M;
  const before = reads;
  await waitFor(() => reads >= before + 10, 'ten GPS reads');
  expect(events.messages).toHaveLength(1);

  // 120 m north: reported at once
  here.lat = 41 + 120 * PER_M;
  await waitFor(() => events.messages[1], 'the movement reported');
  expect(events.messages[1]!.gps!.lat).toBeCloseTo(41 + 120 * PER_M, 9);
  // and measured from there: another 30 m is not enough
  here.lat = 41 + 150 * PER_M;
  const after = reads;
  await waitFor(() => reads >= after + 10, 'ten more GPS reads');
  expect(events.messages).toHaveLength(2);
});
