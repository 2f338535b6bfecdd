// Writing a firmware image to a controller over its Modbus line, block by block (CONTROLLER_FW in the protocol
// package): announce size and hash, write the blocks in order (each a job of its own on the port, so polling
// goes on between them; a block whose answer was lost is sent again, which the controller takes once), commit,
// then wait for the controller to install it and read the version it runs now.
import {
  CONTROLLER_FW,
  CONTROLLER_FW_BLOCK_BYTES,
  CONTROLLER_FW_COMMAND,
  CONTROLLER_FW_FAILURE,
  CONTROLLER_FW_STATE,
  CONTROLLER_FW_VERSION_REGISTERS,
  blockWords,
  sha256Words,
  wordsVersion,
} from '@genset/protocol';
import type { ModbusLink } from './modbus-link.ts';

export interface ControllerWriteOptions {
  /** Tries per block before giving up (default 3). */
  tries?: number;
  /** How long the controller may take to install and restart (default 60 s). */
  installTimeoutMs?: number;
  /** How often its state is read meanwhile (default 500 ms). */
  pollMs?: number;
  /** Bytes written so far, after each block. */
  onProgress?: (written: number, total: number) => void;
}

export class ControllerFirmwareError extends Error {
  constructor(
    message: string,
    /** The controller's reason (CONTROLLER_FW_FAILURE's key), when it gave one. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ControllerFirmwareError';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function reasonOf(code: number): string {
  return Object.entries(CONTROLLER_FW_FAILURE).find(([, value]) => value === code)?.[0] ?? `code ${code}`;
}

/** The version the controller reports running. */
export async function readControllerVersion(link: ModbusLink, address: number): Promise<string> {
  const block = await link.run(address, (channel) =>
    channel.readBlock({ fc: 3, start: CONTROLLER_FW.version, count: CONTROLLER_FW_VERSION_REGISTERS }),
  );
  return wordsVersion(block.words ?? []);
}

async function readState(link: ModbusLink, address: number) {
  const block = await link.run(address, (channel) =>
    channel.readBlock({ fc: 3, start: CONTROLLER_FW.state, count: 2 }),
  );
  const words = block.words ?? [];
  return { state: words[0] ?? -1, failure: words[1] ?? 0 };
}

/** Writes the image; resolves with the version the controller runs afterwards. */
export async function writeControllerFirmware(
  link: ModbusLink,
  address: number,
  image: Uint8Array,
  options: ControllerWriteOptions = {},
): Promise<string> {
  const tries = options.tries ?? 3;
  const write = (start: number, values: number[]) =>
    link.run(address, (channel) => channel.write({ fc: 16, address: start, values }));
  const withTries = async (what: () => Promise<void>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await what();
      } catch (error) {
        if (attempt >= tries) throw error;
        await sleep(200 * attempt);
      }
    }
  };

  await withTries(() =>
    write(CONTROLLER_FW.size, [Math.floor(image.length / 0x10000), image.length & 0xffff, ...sha256Words(image)]),
  );
  await withTries(() => write(CONTROLLER_FW.command, [CONTROLLER_FW_COMMAND.begin]));
  let written = 0;
  for (let index = 0; written < image.length; index++) {
    const data = image.subarray(written, written + CONTROLLER_FW_BLOCK_BYTES);
    await withTries(() => write(CONTROLLER_FW.block, blockWords(index, data)));
    written += data.length;
    options.onProgress?.(written, image.length);
  }
  const refused = await readState(link, address);
  if (refused.state === CONTROLLER_FW_STATE.failed)
    throw new ControllerFirmwareError(
      `controller refused the image: ${reasonOf(refused.failure)}`,
      reasonOf(refused.failure),
    );
  await withTries(() => write(CONTROLLER_FW.command, [CONTROLLER_FW_COMMAND.commit]));

  const deadline = Date.now() + (options.installTimeoutMs ?? 60_000);
  for (;;) {
    // the controller restarts while installing: a read may fail meanwhile
    const now = await readState(link, address).catch(() => undefined);
    if (now?.state === CONTROLLER_FW_STATE.updated) return readControllerVersion(link, address);
    if (now?.state === CONTROLLER_FW_STATE.failed)
      throw new ControllerFirmwareError(
        `controller refused the image: ${reasonOf(now.failure)}`,
        reasonOf(now.failure),
      );
    if (Date.now() > deadline) throw new ControllerFirmwareError('controller did not finish installing in time');
    await sleep(options.pollMs ?? 500);
  }
}
