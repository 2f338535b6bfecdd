import { describe, expect, test } from 'vitest';
import { compileConfigDecoder } from './codec.ts';
import {
  checkCommandPreconditions,
  findCommand,
  findConfigParam,
  planCommandWrites,
  planConfigWrite,
  planConfigWrites,
} from './commands.ts';
import { LAYOUT_G_CONTROL_REGISTER, LAYOUT_G_MODES, layoutG } from './layout-g.ts';
import { LAYOUT_S_COMMAND_COILS, LAYOUT_S_MODES, layoutS } from './layout-s.ts';

describe('planCommandWrites', () => {
  test('layout S presses a command coil', () => {
    expect(planCommandWrites(findCommand(layoutS, 'start')!)).toEqual([
      { fc: 5, address: LAYOUT_S_COMMAND_COILS.start, value: true },
    ]);
  });

  test('layout G writes the key and its complement together', () => {
    expect(planCommandWrites(findCommand(layoutG, 'start')!)).toEqual([
      { fc: 16, address: LAYOUT_G_CONTROL_REGISTER, values: [35705, 65535 - 35705] },
    ]);
  });

  test('both layouts offer the same commands', () => {
    expect(layoutS.commands.map((c) => c.key).sort()).toEqual(layoutG.commands.map((c) => c.key).sort());
  });
});

describe('checkCommandPreconditions', () => {
  test('refuses everything while the remote lock is set', () => {
    const reset = findCommand(layoutS, 'fault_reset')!;
    expect(checkCommandPreconditions(reset, { remote_lock: 1 })?.['en-US']).toMatch(/locked/);
    expect(checkCommandPreconditions(reset, { remote_lock: 0 })).toBeNull();
  });

  test('start needs manual or test mode, in each layout’s own numbering', () => {
    const startS = findCommand(layoutS, 'start')!;
    const startG = findCommand(layoutG, 'start')!;
    expect(checkCommandPreconditions(startS, { mode: LAYOUT_S_MODES.auto })?.['en-US']).toMatch(/manual/);
    expect(checkCommandPreconditions(startS, { mode: LAYOUT_S_MODES.manual })).toBeNull();
    expect(checkCommandPreconditions(startG, { mode: LAYOUT_G_MODES.auto })).not.toBeNull();
    expect(checkCommandPreconditions(startG, { mode: LAYOUT_G_MODES.manual })).toBeNull();
  });
});

describe('planConfigWrite', () => {
  test('checks range and options', () => {
    expect(planConfigWrite(findConfigParam(layoutS, 'crank_attempts')!, 11)).toEqual({
      ok: false,
      reason: 'crank_attempts: 11 is outside 1…10',
    });
    expect(planConfigWrite(findConfigParam(layoutS, 'rated_frequency')!, 55).ok).toBe(false);
  });

  test('a 16-bit parameter of layout S is one fc 6 write; a 32-bit one of layout G is fc 16', () => {
    expect(planConfigWrite(findConfigParam(layoutS, 'cooling_time_s')!, 120)).toEqual({
      ok: true,
      write: { fc: 6, address: 4102, value: 120 },
    });
    const ratedKw = findConfigParam(layoutG, 'rated_kw')!;
    expect(planConfigWrite(ratedKw, 7000.5)).toMatchObject({ ok: false });
    expect(planConfigWrite(ratedKw, 2500.5)).toEqual({
      ok: true,
      write: { fc: 16, address: ratedKw.address, values: [0, 25005] },
    });
  });

  test('what a write puts in the registers reads back as the same value', () => {
    const decode = compileConfigDecoder(layoutG);
    const param = findConfigParam(layoutG, 'battery_low_warning_v')!;
    const plan = planConfigWrite(param, 23.5);
    if (!plan.ok || plan.write.fc !== 16) throw new Error('expected an fc 16 write');
    expect(decode([{ fc: 3, start: plan.write.address, words: plan.write.values }])).toEqual({
      battery_low_warning_v: 23.5,
    });
  });
});

describe('parameters at bits of one register', () => {
  const auto = findConfigParam(layoutS, 'mains_fail_auto_start')!;
  const idle = findConfigParam(layoutS, 'idle_start')!;
  const language = findConfigParam(layoutS, 'panel_language')!;
  const crank = findConfigParam(layoutS, 'crank_attempts')!;
  const register = auto.address;

  test('a field is placed into the register’s current value; without it nothing is planned', () => {
    expect(planConfigWrite(language, 2, 0b1100_0011)).toEqual({
      ok: true,
      write: { fc: 6, address: register, value: 0b1110_0011 },
    });
    expect(planConfigWrite(language, 2)).toEqual({
      ok: false,
      reason: `panel_language: register ${register} must be read before its bits are written`,
    });
    expect(planConfigWrite(language, 4, 0)).toEqual({ ok: false, reason: 'panel_language: 4 is outside 0…3' });
  });

  test('several changed fields of one register go in one write, next to whole-register writes', () => {
    const plan = planConfigWrites(
      [
        { param: idle, value: 1 },
        { param: crank, value: 4 },
        { param: language, value: 3 },
      ],
      (address) => (address === register ? 0b1000_0000_0001 : undefined),
    );
    expect(plan).toEqual({
      ok: true,
      writes: [
        { fc: 6, address: register, value: 0b1000_0011_0011 },
        { fc: 6, address: crank.address, value: 4 },
      ],
    });
    const decode = compileConfigDecoder(layoutS);
    if (!plan.ok || plan.writes[0]!.fc !== 6) throw new Error('expected an fc 6 write');
    expect(decode([{ fc: 3, start: register, words: [plan.writes[0]!.value] }])).toEqual({
      mains_fail_auto_start: 1,
      idle_start: 1,
      panel_language: 3,
    });
  });

  test('layout G writes the register with fc 16; a refused field or an unread register plans nothing', () => {
    const gIdle = findConfigParam(layoutG, 'idle_start')!;
    expect(planConfigWrites([{ param: gIdle, value: 1 }], () => 0b0001_0001)).toEqual({
      ok: true,
      writes: [{ fc: 16, address: gIdle.address, values: [0b0001_0011] }],
    });
    expect(planConfigWrites([{ param: gIdle, value: 2 }], () => 0)).toMatchObject({ ok: false });
    expect(planConfigWrites([{ param: gIdle, value: 1 }], () => undefined)).toMatchObject({ ok: false });
  });
});
