// Payload schemas of every MQTT message between a cloud module and the cloud (see DEVICES.md, MQTT contract).
// Every size is bounded so that either side can refuse an oversized or malformed message before acting on it.
import { z } from 'zod';
import type { ModemChannel } from './topics.ts';
import { modbusUnitAddress, modemPortName } from './fields.ts';
import { emsDemandResponse, emsStatus, emsTactic } from '../ems/tactic.ts';

/** Largest payload either side accepts on any channel; the broker may be configured with the same limit. */
export const MQTT_MAX_PAYLOAD_BYTES = 128 * 1024;
/** Modbus allows 125 registers per read (function codes 3 and 4). */
export const MQTT_MAX_WORDS_PER_BLOCK = 125;
/** Modbus allows 2000 coils or discrete inputs per read (function codes 1 and 2). */
export const MQTT_MAX_BITS_PER_BLOCK = 2000;
/** Modbus allows 123 registers per multiple-register write (function code 16). */
export const MQTT_MAX_WRITE_WORDS = 123;
/** Modbus allows 1968 coils per multiple-coil write (function code 15). */
export const MQTT_MAX_WRITE_BITS = 1968;
export const MQTT_MAX_BLOCKS = 64;
export const MQTT_MAX_CONTROLLERS = 32;
export const MQTT_MAX_WRITES = 32;
export const MQTT_MAX_ERROR_LENGTH = 500;
export const MQTT_MIN_RATE_MS = 100;
export const MQTT_MAX_RATE_MS = 24 * 3600 * 1000;

const uint16 = () => z.int().min(0).max(0xffff);
/**
 * The last millisecond of the year 9999: a module's clock past it is nonsense, and time arithmetic on such
 * values (the day a sample falls on in the set's time zone) leaves the range a date can hold.
 */
export const MQTT_MAX_EPOCH_MS = 253_402_300_799_999;
const epochMs = () => z.int().min(0).max(MQTT_MAX_EPOCH_MS);
const errorText = () => z.string().max(MQTT_MAX_ERROR_LENGTH);
const rateMs = () => z.int().min(MQTT_MIN_RATE_MS).max(MQTT_MAX_RATE_MS);

export { modbusUnitAddress, modemPortName } from './fields.ts';

function isBitFunction(fc: number): boolean {
  return fc === 1 || fc === 2;
}

/** One Modbus read: function code 1 coils, 2 discrete inputs, 3 holding registers, 4 input registers. */
export const mqttPollBlock = z
  .object({
    fc: z.literal([1, 2, 3, 4]),
    start: uint16(),
    count: z.int().min(1).max(MQTT_MAX_BITS_PER_BLOCK),
  })
  .superRefine((block, ctx) => {
    const max = isBitFunction(block.fc) ? MQTT_MAX_BITS_PER_BLOCK : MQTT_MAX_WORDS_PER_BLOCK;
    if (block.count > max) ctx.addIssue({ code: 'custom', path: ['count'], message: `at most ${max} per read` });
    if (block.start + block.count > 0x10000) ctx.addIssue({ code: 'custom', path: ['count'], message: 'past 65535' });
  });
export type MqttPollBlock = z.infer<typeof mqttPollBlock>;

/** What a block read returned: `words` for function codes 3/4, `bits` for 1/2. */
export const modemDataBlock = z
  .object({
    fc: z.literal([1, 2, 3, 4]),
    start: uint16(),
    words: z.array(uint16()).max(MQTT_MAX_WORDS_PER_BLOCK).optional(),
    bits: z.array(z.boolean()).max(MQTT_MAX_BITS_PER_BLOCK).optional(),
  })
  .superRefine((block, ctx) => {
    const bitBlock = isBitFunction(block.fc);
    const values = bitBlock ? block.bits : block.words;
    if (!values) ctx.addIssue({ code: 'custom', message: bitBlock ? 'fc 1/2 carries bits' : 'fc 3/4 carries words' });
    if ((bitBlock ? block.words : block.bits) !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'words and bits do not mix in one block' });
    }
    if (values && block.start + values.length > 0x10000) ctx.addIssue({ code: 'custom', message: 'past 65535' });
  });
export type ModemDataBlock = z.infer<typeof modemDataBlock>;

/**
 * Upper bound of the JSON size of a `data` message reading these blocks (a word is at most "65535,", a bit
 * "false,"), so that a plan can be refused when its snapshot would not fit in one message.
 */
export function maxDataMessageBytes(blocks: readonly MqttPollBlock[]): number {
  const envelope = 200 + MQTT_MAX_ERROR_LENGTH * 2;
  return blocks.reduce((sum, block) => sum + 48 + block.count * 6, envelope);
}

/** `state`, retained: the module's presence; `offline` is also its last will. Sent as the bare word. */
export const modemState = z.enum(['online', 'offline']);
export type ModemState = z.infer<typeof modemState>;

/** `hello`: what the module is and which controllers it has on which port. */
export const modemHello = z.object({
  model: z.string().max(64),
  firmware: z.string().max(64),
  imei: z.string().max(32),
  iccid: z.string().max(32),
  /** The SIM's IMSI, from modules that can read it (older ones leave it out). */
  imsi: z.string().max(32).optional(),
  controllers: z
    .array(
      z.object({
        port: modemPortName(),
        address: modbusUnitAddress(),
        model: z.string().max(64).optional(),
        /** The firmware the controller says it runs, when it says (CONTROLLER_FW.version). */
        firmware: z.string().max(32).optional(),
      }),
    )
    .max(MQTT_MAX_CONTROLLERS),
  /** A station's module: the tactic it runs (version 0: none yet). */
  ems: emsStatus.optional(),
});
export type ModemHello = z.infer<typeof modemHello>;

/** What to poll on one controller and how often. */
export const modemControllerPlan = z
  .object({
    port: modemPortName(),
    address: modbusUnitAddress(),
    blocks: z.array(mqttPollBlock).max(MQTT_MAX_BLOCKS),
    /** Period while someone watches one of the module's sets. */
    onlineRateMs: rateMs(),
    /** Period while nobody watches (saves cellular traffic). */
    offlineRateMs: rateMs(),
    /** `changes`: a snapshot equal to the last one sent is skipped, but one is still sent every `fullSnapshotEvery` periods. */
    mode: z.enum(['full', 'changes']),
    /** Which of the two rates applies now. */
    online: z.boolean(),
    fullSnapshotEvery: z.int().min(1).max(10000).optional(),
  })
  .superRefine((plan, ctx) => {
    if (maxDataMessageBytes(plan.blocks) > MQTT_MAX_PAYLOAD_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['blocks'],
        message: 'a snapshot of these blocks would not fit in one message',
      });
    }
  });
export type ModemControllerPlan = z.infer<typeof modemControllerPlan>;

/** `plan`, retained: the poll plan of every controller of the module, and how often to send an `event`. */
export const modemPlan = z.object({
  controllers: z.array(modemControllerPlan).max(MQTT_MAX_CONTROLLERS),
  eventRateMs: rateMs(),
});
export type ModemPlan = z.infer<typeof modemPlan>;

/**
 * `data`: one complete snapshot of a controller's plan blocks. `seq` rises by one per message of the module
 * and survives restarts; `ts` is the module's clock when the read began. A controller that does not answer
 * is reported with `error` (and whatever blocks could still be read), never skipped.
 */
export const modemData = z.object({
  seq: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  ts: epochMs(),
  port: modemPortName(),
  address: modbusUnitAddress(),
  blocks: z.array(modemDataBlock).max(MQTT_MAX_BLOCKS),
  error: errorText().optional(),
});
export type ModemData = z.infer<typeof modemData>;

/** `ack`: every `data` message up to and including `upTo` is stored; the module may forget them. */
export const modemAck = z.object({ upTo: z.int().min(0).max(Number.MAX_SAFE_INTEGER) });
export type ModemAck = z.infer<typeof modemAck>;

/** `event`: periodic telemetry of the module itself. */
export const modemEvent = z.object({
  ts: epochMs(),
  /** Degrees; altitude in metres, speed in km/h. */
  gps: z
    .object({
      lat: z.number().min(-90).max(90),
      lon: z.number().min(-180).max(180),
      alt: z.number().min(-1000).max(100000).optional(),
      speed: z.number().min(0).max(2000).optional(),
    })
    .optional(),
  /** Received signal strength in dBm, and the modem's CSQ figure (0–31, 99 unknown) when it has one. */
  signal: z.object({ rssi: z.number().min(-200).max(0), csq: z.int().min(0).max(99).optional() }).optional(),
  /** Bytes received and sent over the cellular link since the counters were set up. */
  sim: z.object({ rxBytes: z.int().min(0), txBytes: z.int().min(0) }).optional(),
  /** The module's own digital or analogue inputs, by name. */
  inputs: z
    .record(z.string().max(32), z.union([z.boolean(), z.number()]))
    .refine((inputs) => Object.keys(inputs).length <= 32, { message: 'at most 32 inputs' })
    .optional(),
  heartbeat: z.object({ uptimeS: z.int().min(0), outboxSize: z.int().min(0), lastSeq: z.int().min(0) }).optional(),
  /** A station's module: what its EMS cycle runs and decided last. */
  ems: emsStatus.optional(),
});
export type ModemEvent = z.infer<typeof modemEvent>;

/**
 * One Modbus write. fc 5: `value` true/false (or 1/0, 0xFF00/0); fc 6: `value` 0–65535;
 * fc 15: `values` coils from `address` on; fc 16: `values` registers from `address` on.
 */
export const modemWrite = z
  .object({
    fc: z.literal([5, 6, 15, 16]),
    address: uint16(),
    value: z.union([z.number(), z.boolean()]).optional(),
    values: z
      .union([z.array(z.number()).max(MQTT_MAX_WRITE_BITS), z.array(z.boolean()).max(MQTT_MAX_WRITE_BITS)])
      .optional(),
  })
  .superRefine((write, ctx) => {
    const problem = writeProblem(write);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export type ModemWrite = z.infer<typeof modemWrite>;

function isCoilValue(value: unknown): boolean {
  return typeof value === 'boolean' || value === 0 || value === 1 || value === 0xff00;
}

function isRegisterValue(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffff;
}

function writeProblem(write: {
  fc: 5 | 6 | 15 | 16;
  address: number;
  value?: number | boolean | undefined;
  values?: number[] | boolean[] | undefined;
}): string | null {
  if (write.fc === 5 || write.fc === 6) {
    if (write.values !== undefined) return `fc ${write.fc} writes one value`;
    if (write.fc === 5 && !isCoilValue(write.value)) return 'fc 5 needs value true/false';
    if (write.fc === 6 && !isRegisterValue(write.value)) return 'fc 6 needs value 0-65535';
    return null;
  }
  if (write.value !== undefined || !write.values || write.values.length === 0) return `fc ${write.fc} needs values`;
  if (write.address + write.values.length > 0x10000) return 'write runs past address 65535';
  const values: unknown[] = write.values;
  if (write.fc === 15) return values.every(isCoilValue) ? null : 'fc 15 values are true/false';
  if (values.length > MQTT_MAX_WRITE_WORDS) return `fc 16 writes at most ${MQTT_MAX_WRITE_WORDS} registers`;
  return values.every(isRegisterValue) ? null : 'fc 16 values are 0-65535';
}

/** A coil value of a write (fc 5 or 15) as the boolean Modbus puts on the wire. */
export function coilIsOn(value: number | boolean | undefined): boolean {
  return value === true || value === 1 || value === 0xff00;
}

const requestId = () => z.string().min(1).max(64);
/** How long the cloud waits for the reply; the module gives up (and says so) after that too. */
const requestTimeoutMs = () => z.int().min(100).max(600_000).optional();

/** `request`: a command for the module; answered by a `reply` with the same id. */
export const modemRequest = z.discriminatedUnion('kind', [
  z.object({
    id: requestId(),
    kind: z.literal('write'),
    port: modemPortName(),
    address: modbusUnitAddress(),
    writes: z.array(modemWrite).min(1).max(MQTT_MAX_WRITES),
    timeoutMs: requestTimeoutMs(),
  }),
  z.object({
    id: requestId(),
    kind: z.literal('read'),
    port: modemPortName(),
    address: modbusUnitAddress(),
    reads: z.array(mqttPollBlock).min(1).max(MQTT_MAX_BLOCKS),
    timeoutMs: requestTimeoutMs(),
  }),
  z.object({ id: requestId(), kind: z.literal('restart'), timeoutMs: requestTimeoutMs() }),
  z.object({
    id: requestId(),
    kind: z.literal('ota'),
    url: z.string().max(1000).optional(),
    version: z.string().max(64).optional(),
    sha256: z.string().max(64).optional(),
    /** Size of the image in bytes, for the download's percentage. */
    size: z.int().min(0).optional(),
    /** What the image is for: the module itself (default) or one of its controllers (`port`, `address`). */
    target: z.enum(['module', 'controller']).optional(),
    port: modemPortName().optional(),
    address: modbusUnitAddress().optional(),
    timeoutMs: requestTimeoutMs(),
  }),
  /** A station's tactic: the module checks it, keeps it on disk and runs it; the reply says accepted or why not. */
  z.object({ id: requestId(), kind: z.literal('tactic'), tactic: emsTactic, timeoutMs: requestTimeoutMs() }),
  /** A demand-response event for the tactic in force (or its cancellation: kw ignored, endTs now). */
  z.object({
    id: requestId(),
    kind: z.literal('demandResponse'),
    event: emsDemandResponse,
    timeoutMs: requestTimeoutMs(),
  }),
]);
export type ModemRequest = z.infer<typeof modemRequest>;
export type ModemRequestKind = ModemRequest['kind'];

/**
 * `reply`: the outcome of a request. `ok: true` only when the module saw it succeed; otherwise `error` says
 * what went wrong. A `read` carries what it read in `data`; an `ota` may send `progress` replies before the last.
 */
export const modemReply = z
  .object({
    id: requestId(),
    ok: z.boolean(),
    error: errorText().optional(),
    data: z.object({ ts: epochMs(), blocks: z.array(modemDataBlock).max(MQTT_MAX_BLOCKS) }).optional(),
    progress: z
      .object({
        stage: z.enum([
          'accepted',
          'downloading',
          'verifying',
          'installing',
          'rebooting',
          'done',
          // the upgrade's steps as the cloud records them (downloaded, verified, updating, then updated or failed)
          'downloaded',
          'verified',
          'updating',
          'updated',
          'failed',
        ]),
        percent: z.number().min(0).max(100).optional(),
        /** Bytes of the image the module holds so far. */
        bytes: z.int().min(0).optional(),
        /** The version the module runs (before the upgrade, or after it). */
        version: z.string().max(64).optional(),
        /** The old version came back because the new one failed to connect. */
        rolledBack: z.boolean().optional(),
      })
      .optional(),
  })
  .refine((reply) => reply.ok || reply.error !== undefined, { message: 'a failed reply says why' });
export type ModemReply = z.infer<typeof modemReply>;

/** The schema of each channel's payload. */
export const modemMessages = {
  state: modemState,
  hello: modemHello,
  plan: modemPlan,
  data: modemData,
  ack: modemAck,
  event: modemEvent,
  request: modemRequest,
  reply: modemReply,
} as const satisfies Record<ModemChannel, z.ZodType>;

export type ModemMessage<C extends ModemChannel> = z.infer<(typeof modemMessages)[C]>;

/** The payload of a message: the bare word for `state`, JSON for everything else. */
export function encodeModemPayload<C extends ModemChannel>(channel: C, message: ModemMessage<C>): string {
  return channel === 'state' ? String(message) : JSON.stringify(message);
}

export type ModemPayloadResult<C extends ModemChannel> =
  { ok: true; message: ModemMessage<C> } | { ok: false; error: string };

/** Checks size, JSON and schema of a received payload; never throws. */
export function parseModemPayload<C extends ModemChannel>(
  channel: C,
  payload: Uint8Array | string,
): ModemPayloadResult<C> {
  // TextEncoder/TextDecoder rather than Buffer: this package also runs in the browser.
  const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload).byteLength : payload.byteLength;
  if (bytes > MQTT_MAX_PAYLOAD_BYTES) return { ok: false, error: `payload of ${bytes} bytes is over the limit` };
  const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  let value: unknown = text;
  if (channel !== 'state') {
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, error: 'payload is not JSON' };
    }
  }
  const result = modemMessages[channel].safeParse(value);
  if (!result.success) return { ok: false, error: z.prettifyError(result.error) };
  return { ok: true, message: result.data as ModemMessage<C> };
}
