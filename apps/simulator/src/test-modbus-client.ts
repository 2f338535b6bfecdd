// Test support: a real jsmodbus TCP client that reads a document's poll blocks and decodes them,
// exactly as a cloud module and the server would.
import { Socket } from 'node:net';
import * as Modbus from 'jsmodbus';
import {
  compileDecoder,
  derivePollBlocks,
  type DecodedValues,
  type PollBlock,
  type ProtocolDocument,
  type RegisterBlock,
} from '@genset/protocol';

export interface TestModbusClient {
  client: Modbus.ModbusTCPClient;
  readBlocks(blocks: readonly PollBlock[]): Promise<RegisterBlock[]>;
  /** Reads every poll block of the document and decodes it. */
  readValues(doc: ProtocolDocument): Promise<DecodedValues>;
  close(): void;
}

export async function connectModbus(port: number, unitId = 1): Promise<TestModbusClient> {
  const socket = new Socket();
  const client = new Modbus.client.TCP(socket, unitId, 2000);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
    socket.connect({ host: '127.0.0.1', port });
  });
  const decoders = new Map<ProtocolDocument, (blocks: readonly RegisterBlock[]) => DecodedValues>();

  const readBlocks = async (blocks: readonly PollBlock[]): Promise<RegisterBlock[]> => {
    const out: RegisterBlock[] = [];
    for (const block of blocks) {
      switch (block.fc) {
        case 1: {
          const { response } = await client.readCoils(block.start, block.count);
          out.push({ ...block, bits: response.body.valuesAsArray.slice(0, block.count).map(Boolean) });
          break;
        }
        case 2: {
          const { response } = await client.readDiscreteInputs(block.start, block.count);
          out.push({ ...block, bits: response.body.valuesAsArray.slice(0, block.count).map(Boolean) });
          break;
        }
        case 3: {
          const { response } = await client.readHoldingRegisters(block.start, block.count);
          out.push({ ...block, words: [...response.body.valuesAsArray] });
          break;
        }
        case 4: {
          const { response } = await client.readInputRegisters(block.start, block.count);
          out.push({ ...block, words: [...response.body.valuesAsArray] });
          break;
        }
      }
    }
    return out;
  };

  return {
    client,
    readBlocks,
    async readValues(doc) {
      let decode = decoders.get(doc);
      if (!decode) decoders.set(doc, (decode = compileDecoder(doc)));
      return decode(await readBlocks(derivePollBlocks(doc)));
    },
    close: () => socket.destroy(),
  };
}

/** The Modbus exception code a rejected request carried (jsmodbus reports it only in the message). */
export async function modbusExceptionOf(request: Promise<unknown>): Promise<number | undefined> {
  try {
    await request;
    return undefined;
  } catch (error) {
    const match = /\(Code (\d+)\)/.exec((error as { message?: string }).message ?? '');
    if (!match) throw error;
    return Number(match[1]);
  }
}
