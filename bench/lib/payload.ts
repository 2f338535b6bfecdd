// Pre-encoded `data` messages of layout S: a running set whose measurements wander a little from one
// snapshot to the next, encoded once into raw Modbus blocks so that publishing costs the client little.
import { compileDecoder, layoutS } from '@genset/protocol';
import { encodeBlocks } from '../../apps/server/test/support/encode.ts';

/** A set on load in AUTO: running status, no alarm bit set. */
const BASE: Record<string, number> = {
  mains_voltage_l1: 231,
  mains_voltage_l2: 230,
  mains_voltage_l3: 229,
  mains_voltage_l12: 399,
  mains_voltage_l23: 398,
  mains_voltage_l31: 400,
  mains_freq: 50,
  gen_voltage_l1: 230,
  gen_voltage_l2: 231,
  gen_voltage_l3: 229,
  gen_voltage_l12: 400,
  gen_voltage_l23: 399,
  gen_voltage_l31: 398,
  gen_freq: 50,
  gen_current_l1: 173.2,
  gen_current_l2: 171.8,
  gen_current_l3: 174.5,
  coolant_temp: 82,
  oil_pressure: 420,
  fuel_level: 76,
  engine_rpm: 1500,
  battery_voltage: 27.6,
  charger_voltage: 27.8,
  gen_kw: 120,
  gen_kvar: 38,
  gen_kva: 126,
  power_factor: 0.95,
  maintenance_hours: 212,
  engine_state: 9,
  mode: 1,
  run_hours: 1834,
  run_minutes: 12,
  starts: 412,
  kwh_total: 215_400,
  latitude: 52.520008,
  longitude: 13.404954,
  mains_normal: 1,
  gen_normal: 1,
  gen_on_load: 1,
  mode_auto: 1,
};

/** Keys that wander, and by how much (absolute). */
const NOISE: Record<string, number> = {
  gen_voltage_l1: 2,
  gen_voltage_l2: 2,
  gen_voltage_l3: 2,
  gen_freq: 0.05,
  gen_current_l1: 3,
  gen_current_l2: 3,
  gen_current_l3: 3,
  coolant_temp: 2,
  oil_pressure: 10,
  engine_rpm: 4,
  battery_voltage: 0.2,
  gen_kw: 4,
  gen_kvar: 2,
  gen_kva: 4,
};

function lcg(seed: number) {
  let s = seed >>> 0 || 1;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** `count` variants of the blocks as JSON text, different per module (by `seed`). */
export function blockVariants(seed: number, count: number): string[] {
  const random = lcg(seed * 7919 + 17);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const values: Record<string, number> = { ...BASE };
    for (const [key, amplitude] of Object.entries(NOISE)) {
      const scale = layoutS.items.find((item) => item.key === key)?.scale ?? 1;
      const v = BASE[key]! + (random() * 2 - 1) * amplitude;
      values[key] = Math.round(v / scale) * scale;
    }
    out.push(JSON.stringify(encodeBlocks(layoutS, values)));
  }
  return out;
}

export function dataMessage(seq: number, ts: number, blocksJson: string): string {
  return `{"seq":${seq},"ts":${ts},"port":"port1","address":1,"blocks":${blocksJson}}`;
}

/** Reads `seq` and `ts` back from the head of a message built by `dataMessage`, without parsing it all. */
export function seqAndTs(payload: Buffer): { seq: number; ts: number } {
  const head = payload.toString('latin1', 0, 64);
  const m = /^\{"seq":(\d+),"ts":(\d+)/.exec(head);
  return { seq: Number(m?.[1] ?? NaN), ts: Number(m?.[2] ?? NaN) };
}

/** How many values the server decodes from one such snapshot (the data points it stores per message). */
export function decodedValuesPerSnapshot(): { values: number; bytes: number } {
  const blocksJson = blockVariants(1, 1)[0]!;
  const decode = compileDecoder(layoutS);
  const decoded = decode(JSON.parse(blocksJson) as Parameters<typeof decode>[0]);
  const values = Object.values(decoded).filter((v) => v !== null && v !== undefined).length;
  return { values, bytes: Buffer.byteLength(dataMessage(1_000_000, Date.now(), blocksJson)) };
}
