// A firmware written block by block to a simulated controller over real Modbus TCP: the controller checks the
// hash and the model and runs the new version; a corrupted image, one for another model, and a block lost in
// the middle are refused with the controller's reason, and the old version keeps running.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startGensetSimulator, type RunningGensetSimulator } from '@genset/simulator';
import {
  CONTROLLER_FW,
  CONTROLLER_FW_BLOCK_BYTES,
  CONTROLLER_FW_COMMAND,
  CONTROLLER_FW_FAILURE,
  CONTROLLER_FW_STATE,
  blockWords,
  buildControllerImage,
  sha256Words,
} from '@genset/protocol';
import { ModbusLink } from './modbus-link.ts';
import { readControllerVersion, writeControllerFirmware } from './controller-firmware.ts';
import { silentLogger } from './logger.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function controller(): Promise<{ sim: RunningGensetSimulator; link: ModbusLink }> {
  const sim = await startGensetSimulator({
    layout: 'S',
    port: 0,
    host: '127.0.0.1',
    unitId: 1,
    realtime: false,
    firmwareInstallMs: 100,
  } as Parameters<typeof startGensetSimulator>[0]);
  cleanups.push(() => sim.close());
  const link = new ModbusLink(
    'port1',
    { name: 'port1', host: '127.0.0.1', port: sim.port!, controllers: [{ address: 1 }] } as never,
    { timeoutMs: 1000, reconnect: { minMs: 50, maxMs: 200 }, logger: silentLogger },
  );
  cleanups.push(() => link.close());
  return { sim, link };
}

describe('controller firmware over Modbus', () => {
  it('writes a 20 kB image in blocks; the controller installs it and reports the new version', async () => {
    const { sim, link } = await controller();
    expect(await readControllerVersion(link, 1)).toBe('1.0.0');
    const image = buildControllerImage('HGM6120', '1.4.2', randomBytes(20_000));
    const progress: number[] = [];
    const version = await writeControllerFirmware(link, 1, image, {
      pollMs: 20,
      onProgress: (written) => progress.push(written),
    });
    expect(version).toBe('1.4.2');
    expect(sim.state.firmwareVersion).toBe('1.4.2');
    expect(progress).toHaveLength(Math.ceil(image.length / CONTROLLER_FW_BLOCK_BYTES));
    expect(progress.at(-1)).toBe(image.length);
    expect(sim.firmware.installs).toBe(1);
  });

  it('refuses an image for another model, and one whose bytes changed on the way', async () => {
    const { sim, link } = await controller();
    const other = buildControllerImage('DSE7320', '9.9.9', randomBytes(3000));
    await expect(writeControllerFirmware(link, 1, other, { pollMs: 20 })).rejects.toMatchObject({
      reason: 'wrongModel',
    });
    // a byte changed on the way: the blocks are not what the announced hash says
    const image = buildControllerImage('HGM6120', '2.0.0', randomBytes(3000));
    const changed = Uint8Array.from(image);
    changed[100] = changed[100]! ^ 0xff;
    const slot = sim.firmware;
    slot.write(CONTROLLER_FW.size, [0, image.length, ...sha256Words(image)]);
    slot.write(CONTROLLER_FW.command, [CONTROLLER_FW_COMMAND.begin]);
    for (let i = 0; i * CONTROLLER_FW_BLOCK_BYTES < changed.length; i++)
      slot.write(
        CONTROLLER_FW.block,
        blockWords(i, changed.subarray(i * CONTROLLER_FW_BLOCK_BYTES, (i + 1) * CONTROLLER_FW_BLOCK_BYTES)),
      );
    slot.write(CONTROLLER_FW.command, [CONTROLLER_FW_COMMAND.commit]);
    expect(slot.read(CONTROLLER_FW.state, 2)).toEqual([CONTROLLER_FW_STATE.failed, CONTROLLER_FW_FAILURE.hashMismatch]);
    expect(sim.state.firmwareVersion).toBe('1.0.0');
    expect(sim.firmware.installs).toBe(0);
  });

  it('takes a block sent twice once, and refuses one that skips ahead', async () => {
    const { sim } = await controller();
    const slot = sim.firmware;
    const image = buildControllerImage('HGM6120', '3.0.0', randomBytes(600));
    slot.write(CONTROLLER_FW.size, [0, image.length, ...sha256Words(image)]);
    slot.write(CONTROLLER_FW.command, [CONTROLLER_FW_COMMAND.begin]);
    const block = (i: number) =>
      blockWords(i, image.subarray(i * CONTROLLER_FW_BLOCK_BYTES, (i + 1) * CONTROLLER_FW_BLOCK_BYTES));
    slot.write(CONTROLLER_FW.block, block(0));
    slot.write(CONTROLLER_FW.block, block(0));
    expect(() => slot.write(CONTROLLER_FW.block, block(2))).toThrow();
    expect(slot.read(CONTROLLER_FW.state, 2)).toEqual([CONTROLLER_FW_STATE.failed, CONTROLLER_FW_FAILURE.outOfOrder]);
  });
});
