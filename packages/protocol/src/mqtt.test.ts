// The MQTT contract accepts what a module and the cloud really send and refuses what neither should act on.
import { describe, expect, it } from 'vitest';
import {
  MQTT_MAX_PAYLOAD_BYTES,
  encodeModemPayload,
  isModemTopicAllowed,
  modemData,
  modemPlan,
  modemRequest,
  modemTopic,
  modemTopicFilter,
  parseModemPayload,
  parseTopic,
  type ModemData,
  type ModemPlan,
} from './mqtt.ts';

describe('topics', () => {
  it('builds and parses modem topics', () => {
    expect(modemTopic('GW-0001', 'data')).toBe('modem/GW-0001/data');
    expect(parseTopic('modem/GW-0001/data')).toEqual({ modemId: 'GW-0001', channel: 'data' });
    expect(modemTopicFilter('hello')).toBe('modem/+/hello');
  });

  it('rejects foreign topics and ids that would break the topic tree', () => {
    expect(parseTopic('modem/GW-0001/unknown')).toBeNull();
    expect(parseTopic('modem/GW-0001/data/extra')).toBeNull();
    expect(parseTopic('other/GW-0001/data')).toBeNull();
    expect(parseTopic('modem/+/data')).toBeNull();
    expect(() => modemTopic('a/b', 'data')).toThrow();
    expect(() => modemTopic('#', 'state')).toThrow();
  });

  it('lets a module publish only its up-channels and subscribe only its down-channels', () => {
    expect(isModemTopicAllowed('m1', 'publish', 'modem/m1/data')).toBe(true);
    expect(isModemTopicAllowed('m1', 'publish', 'modem/m1/plan')).toBe(false);
    expect(isModemTopicAllowed('m1', 'publish', 'modem/m2/data')).toBe(false);
    expect(isModemTopicAllowed('m1', 'subscribe', 'modem/m1/request')).toBe(true);
    expect(isModemTopicAllowed('m1', 'subscribe', 'modem/+/request')).toBe(false);
    expect(isModemTopicAllowed('m1', 'subscribe', 'modem/m1/data')).toBe(false);
  });
});

describe('payloads', () => {
  const plan: ModemPlan = {
    eventRateMs: 60000,
    controllers: [
      {
        port: 'rs485-1',
        address: 1,
        blocks: [
          { fc: 3, start: 0, count: 125 },
          { fc: 1, start: 0, count: 64 },
        ],
        onlineRateMs: 1000,
        offlineRateMs: 60000,
        mode: 'changes',
        online: false,
      },
    ],
  };

  it('round-trips a plan and a data message', () => {
    expect(parseModemPayload('plan', encodeModemPayload('plan', plan))).toEqual({ ok: true, message: plan });
    const data: ModemData = {
      seq: 7,
      ts: 1_700_000_000_000,
      port: 'rs485-1',
      address: 1,
      blocks: [
        { fc: 3, start: 0, words: [230, 0, 65535] },
        { fc: 1, start: 0, bits: [true, false] },
      ],
    };
    const bytes = new TextEncoder().encode(encodeModemPayload('data', data));
    expect(parseModemPayload('data', bytes)).toEqual({ ok: true, message: data });
    expect(parseModemPayload('state', 'offline')).toEqual({ ok: true, message: 'offline' });
  });

  it('refuses reads larger than Modbus allows and plans whose snapshot would not fit in one message', () => {
    const tooManyWords = structuredClone(plan);
    tooManyWords.controllers[0]!.blocks = [{ fc: 3, start: 0, count: 126 }];
    expect(modemPlan.safeParse(tooManyWords).success).toBe(false);
    const pastEnd = structuredClone(plan);
    pastEnd.controllers[0]!.blocks = [{ fc: 4, start: 65500, count: 100 }];
    expect(modemPlan.safeParse(pastEnd).success).toBe(false);
    const huge = structuredClone(plan);
    huge.controllers[0]!.blocks = Array.from({ length: 64 }, (_, i) => ({
      fc: 1 as const,
      start: i * 1000,
      count: 2000,
    }));
    expect(modemPlan.safeParse(huge).success).toBe(false);
  });

  it('refuses data blocks with the wrong kind of values or too many of them', () => {
    const base = { seq: 1, ts: 1, port: 'p1', address: 1 };
    expect(modemData.safeParse({ ...base, blocks: [{ fc: 3, start: 0, bits: [true] }] }).success).toBe(false);
    expect(modemData.safeParse({ ...base, blocks: [{ fc: 3, start: 0, words: [70000] }] }).success).toBe(false);
    const words = Array.from({ length: 126 }, () => 1);
    expect(modemData.safeParse({ ...base, blocks: [{ fc: 4, start: 0, words }] }).success).toBe(false);
    expect(modemData.safeParse({ ...base, seq: 0, blocks: [] }).success).toBe(false);
    expect(modemData.safeParse({ ...base, blocks: [], error: 'Timeout' }).success).toBe(true);
  });

  it('checks each write against its function code', () => {
    const write = (w: object) =>
      modemRequest.safeParse({ id: 'r1', kind: 'write', port: 'p1', address: 1, writes: [w] });
    expect(write({ fc: 5, address: 3, value: true }).success).toBe(true);
    expect(write({ fc: 5, address: 3, value: 0xff00 }).success).toBe(true);
    expect(write({ fc: 5, address: 3, value: 7 }).success).toBe(false);
    expect(write({ fc: 6, address: 3, value: 65535 }).success).toBe(true);
    expect(write({ fc: 6, address: 3, value: 65536 }).success).toBe(false);
    expect(write({ fc: 6, address: 3 }).success).toBe(false);
    expect(write({ fc: 16, address: 3, values: [1, 65534] }).success).toBe(true);
    expect(write({ fc: 16, address: 3, values: Array.from({ length: 124 }, () => 0) }).success).toBe(false);
    expect(write({ fc: 15, address: 3, values: [true, false] }).success).toBe(true);
    expect(write({ fc: 15, address: 3, values: [2] }).success).toBe(false);
    expect(modemRequest.safeParse({ id: 'r2', kind: 'write', port: 'p1', address: 1, writes: [] }).success).toBe(false);
    expect(modemRequest.safeParse({ id: 'r3', kind: 'restart' }).success).toBe(true);
    expect(modemRequest.safeParse({ id: 'r4', kind: 'format-disk' }).success).toBe(false);
  });

  it('refuses oversized and malformed payloads without throwing', () => {
    const big = JSON.stringify({ upTo: 1, padding: 'x'.repeat(MQTT_MAX_PAYLOAD_BYTES) });
    expect(parseModemPayload('ack', big).ok).toBe(false);
    expect(parseModemPayload('ack', '{"upTo":').ok).toBe(false);
    expect(parseModemPayload('ack', '{"upTo":-1}').ok).toBe(false);
    expect(parseModemPayload('state', 'maybe').ok).toBe(false);
    expect(parseModemPayload('reply', '{"id":"r1","ok":false}').ok).toBe(false);
  });
});
