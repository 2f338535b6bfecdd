// Each strategy, limit and clamp of the EMS cycle on numbers a site engineer can check by hand.
import { describe, expect, it } from 'vitest';
import { minutesOf, priceTemplateBody, type PriceTemplateBodyInput } from '@genset/protocol';
import {
  SOC_LATCH_OPEN,
  activeDemandResponse,
  capacityExpansionKw,
  decide,
  peakShavingKw,
  timeOfUseKw,
  type EmsDecisionInput,
  type EmsMeasurements,
  type SocLatch,
} from './strategies.ts';
import { PRICES } from './test-site.ts';

function template(extra: Partial<PriceTemplateBodyInput> = {}) {
  return priceTemplateBody.parse({
    ranges: [
      { start: '00:00', end: '08:00', period: 'valley' },
      { start: '08:00', end: '10:00', period: 'flat' },
      { start: '10:00', end: '12:00', period: 'peak' },
      { start: '12:00', end: '18:00', period: 'flat' },
      { start: '18:00', end: '21:00', period: 'sharp' },
      { start: '21:00', end: '22:00', period: 'peak' },
      { start: '22:00', end: '24:00', period: 'valley' },
    ],
    prices: PRICES,
    powerKw: 100,
    chargeCutoffSoc: 90,
    dischargeCutoffSoc: 10,
    socMargin: 5,
    reversePower: { enabled: false, marginKw: 5 },
    demandControl: { enabled: false, limitKw: 500 },
    ...extra,
  } satisfies PriceTemplateBodyInput);
}

const measured = (extra: Partial<EmsMeasurements> = {}): EmsMeasurements => ({
  gridPowerKw: 300,
  pcsPowerKw: 0,
  pcsRatingKw: 250,
  soc: 50,
  bmsChargeLimitKw: 250,
  bmsDischargeLimitKw: 250,
  ...extra,
});

const at = (time: string) => minutesOf(time);

function input(extra: Partial<EmsDecisionInput> & { m?: Partial<EmsMeasurements> } = {}): EmsDecisionInput {
  const { m, ...rest } = extra;
  return {
    measurements: measured(m),
    tactic: { strategy: 'timeOfUse', params: {}, template: template() },
    minuteOfDay: at('12:30'),
    latch: SOC_LATCH_OPEN,
    ...rest,
  };
}

describe('time of use', () => {
  it('charges at the template power in valley, discharges in peak and sharp, idles in flat', () => {
    const t = template();
    expect(timeOfUseKw(t, at('03:00'))).toBe(-100);
    expect(timeOfUseKw(t, at('23:59'))).toBe(-100);
    expect(timeOfUseKw(t, at('09:00'))).toBe(0);
    expect(timeOfUseKw(t, at('10:00'))).toBe(100);
    expect(timeOfUseKw(t, at('19:00'))).toBe(100);
    expect(timeOfUseKw(t, at('21:30'))).toBe(100);
  });

  it('charges in flat too when chargeInFlat says so', () => {
    expect(timeOfUseKw(template({ chargeInFlat: true }), at('13:00'))).toBe(-100);
  });

  it('stops charging at the charge cut-off and resumes only once SOC fell by the margin', () => {
    const valley = (soc: number, latch: SocLatch) => decide(input({ minuteOfDay: at('02:00'), latch, m: { soc } }));
    let step = valley(89, SOC_LATCH_OPEN);
    expect(step.setpointKw).toBe(-100);
    step = valley(90, step.latch);
    expect(step).toMatchObject({ setpointKw: 0, limitedBy: 'soc' });
    // within the margin: still stopped (no hunting at 89.9 / 90)
    step = valley(87, step.latch);
    expect(step).toMatchObject({ setpointKw: 0, limitedBy: 'soc' });
    step = valley(85, step.latch);
    expect(step.setpointKw).toBe(-100);
    expect(step.limitedBy).toBeUndefined();
  });

  it('stops discharging at the discharge cut-off and resumes only once SOC rose by the margin', () => {
    const peak = (soc: number, latch: SocLatch) => decide(input({ minuteOfDay: at('11:00'), latch, m: { soc } }));
    let step = peak(11, SOC_LATCH_OPEN);
    expect(step.setpointKw).toBe(100);
    step = peak(10, step.latch);
    expect(step).toMatchObject({ setpointKw: 0, limitedBy: 'soc' });
    step = peak(14, step.latch);
    expect(step.setpointKw).toBe(0);
    step = peak(15, step.latch);
    expect(step.setpointKw).toBe(100);
  });
});

describe('peak shaving', () => {
  const t = template({ demandControl: { enabled: false, limitKw: 500 } });

  it('discharges what the site would import above the limit, counting what the battery already gives', () => {
    expect(peakShavingKw({ gridPowerKw: 620, pcsPowerKw: 0 }, t, {})).toBe(120);
    // import 480 while discharging 100: without the battery it would be 580, so keep giving 80
    expect(peakShavingKw({ gridPowerKw: 480, pcsPowerKw: 100 }, t, {})).toBe(80);
  });

  it('recharges only with headroom under the limit, at most the template power', () => {
    expect(peakShavingKw({ gridPowerKw: 400, pcsPowerKw: 0 }, t, { rechargeHeadroomKw: 20 })).toBe(-80);
    expect(peakShavingKw({ gridPowerKw: 300, pcsPowerKw: 0 }, t, { rechargeHeadroomKw: 20 })).toBe(-100);
    expect(peakShavingKw({ gridPowerKw: 490, pcsPowerKw: 0 }, t, { rechargeHeadroomKw: 20 })).toBe(0);
    // charging 60 already with import 440: the site alone is 380, room is 100 → the template's 100
    expect(peakShavingKw({ gridPowerKw: 440, pcsPowerKw: -60 }, t, { rechargeHeadroomKw: 20 })).toBe(-100);
  });

  it('as the strategy of a decision never leaves import above the limit when the battery can hold it', () => {
    const step = decide(
      input({ tactic: { strategy: 'peakShaving', params: {}, template: t }, m: { gridPowerKw: 700, pcsPowerKw: 50 } }),
    );
    expect(step.setpointKw).toBe(250);
    const expectedImport = 700 - (step.setpointKw - 50);
    expect(expectedImport).toBe(500);
  });
});

describe('capacity expansion and idle', () => {
  it('covers import above the transformer capacity and nothing else', () => {
    expect(capacityExpansionKw({ gridPowerKw: 950, pcsPowerKw: 0 }, { transformerKw: 800 })).toBe(150);
    expect(capacityExpansionKw({ gridPowerKw: 780, pcsPowerKw: 100 }, { transformerKw: 800 })).toBe(80);
    expect(capacityExpansionKw({ gridPowerKw: 700, pcsPowerKw: 0 }, { transformerKw: 800 })).toBe(0);
    expect(capacityExpansionKw({ gridPowerKw: 950, pcsPowerKw: 0 }, {})).toBe(0);
  });

  it('idle stays at 0 kW', () => {
    const step = decide(input({ tactic: { strategy: 'idle', params: {}, template: template() } }));
    expect(step).toMatchObject({ setpointKw: 0 });
    expect(step.limitedBy).toBeUndefined();
  });
});

describe('grid limits', () => {
  const reverse = template({ reversePower: { enabled: true, marginKw: 5 } });

  it('reverse-power protection shrinks discharge so import stays at the margin', () => {
    const step = decide(
      input({
        minuteOfDay: at('11:00'),
        tactic: { strategy: 'timeOfUse', params: {}, template: reverse },
        m: { gridPowerKw: 60 },
      }),
    );
    expect(step).toMatchObject({ setpointKw: 55, limitedBy: 'reversePower' });
    // discharging 100 into a site that now takes only 40: back to 35 at once
    const after = decide(
      input({
        minuteOfDay: at('11:00'),
        tactic: { strategy: 'timeOfUse', params: {}, template: reverse },
        m: { gridPowerKw: -60, pcsPowerKw: 100 },
      }),
    );
    expect(after).toMatchObject({ setpointKw: 35, limitedBy: 'reversePower' });
    const none = decide(
      input({
        minuteOfDay: at('11:00'),
        tactic: { strategy: 'timeOfUse', params: {}, template: reverse },
        m: { gridPowerKw: 3 },
      }),
    );
    expect(none).toMatchObject({ setpointKw: 0, limitedBy: 'reversePower' });
  });

  it('curtails PV when the battery is not discharging and PV still exports, and releases it with the load', () => {
    const idle = { strategy: 'idle' as const, params: {}, template: reverse };
    // exporting 30 kW, PV gives 80 at 100 %: it must give 35 less → 45 of an estimated 80 kW rating
    const cut = decide(input({ tactic: idle, m: { gridPowerKw: -30, pvPowerKw: 80, pvLimitPct: 100 } }));
    expect(cut).toMatchObject({ setpointKw: 0, pvLimitPct: 56.3, limitedBy: 'pvCurtailed' });
    // the load grew: import 20 with PV at 45 (of 80) leaves 15 kW to release
    const release = decide(input({ tactic: idle, m: { gridPowerKw: 20, pvPowerKw: 45, pvLimitPct: 56.25 } }));
    expect(release.pvLimitPct).toBe(75);
    // plenty of import: back to 100 %, nothing limited any more
    const free = decide(input({ tactic: idle, m: { gridPowerKw: 300, pvPowerKw: 60, pvLimitPct: 75 } }));
    expect(free.pvLimitPct).toBe(100);
    expect(free.limitedBy).toBeUndefined();
    // at the margin: the limit stays as it is (nothing written)
    const hold = decide(input({ tactic: idle, m: { gridPowerKw: 5, pvPowerKw: 45, pvLimitPct: 56.3 } }));
    expect(hold.pvLimitPct).toBeUndefined();
    expect(hold.limitedBy).toBe('pvCurtailed');
  });

  it('stops a discharge before curtailing PV', () => {
    const step = decide(
      input({
        minuteOfDay: at('11:00'),
        tactic: { strategy: 'timeOfUse', params: {}, template: reverse },
        m: { gridPowerKw: -50, pcsPowerKw: 20, pvPowerKw: 100, pvLimitPct: 100 },
      }),
    );
    // without the battery the site exports 30; at 0 kW it still must shed 35 kW of PV
    expect(step.setpointKw).toBe(0);
    expect(step.pvLimitPct).toBe(65);
  });

  it('leaves PV alone without reverse-power protection or a PV limit role', () => {
    const idle = { strategy: 'idle' as const, params: {}, template: template() };
    expect(decide(input({ tactic: idle, m: { gridPowerKw: -30, pvPowerKw: 80, pvLimitPct: 100 } })).pvLimitPct).toBe(
      undefined,
    );
    const idleReverse = { strategy: 'idle' as const, params: {}, template: reverse };
    expect(decide(input({ tactic: idleReverse, m: { gridPowerKw: -30, pvPowerKw: 80 } })).pvLimitPct).toBe(undefined);
  });

  it('the demand limit holds charging under it and discharges to hold it', () => {
    const limited = template({ demandControl: { enabled: true, limitKw: 500 } });
    const tactic = { strategy: 'timeOfUse' as const, params: {}, template: limited };
    const charge = decide(input({ minuteOfDay: at('02:00'), tactic, m: { gridPowerKw: 450 } }));
    expect(charge).toMatchObject({ setpointKw: -50, limitedBy: 'demandLimit' });
    // already charging 100 with import 520: the site alone is 420, so 80 of charge keeps 500
    const lower = decide(input({ minuteOfDay: at('02:00'), tactic, m: { gridPowerKw: 520, pcsPowerKw: -100 } }));
    expect(lower).toMatchObject({ setpointKw: -80, limitedBy: 'demandLimit' });
    const hold = decide(input({ minuteOfDay: at('02:00'), tactic, m: { gridPowerKw: 560 } }));
    expect(hold).toMatchObject({ setpointKw: 60, limitedBy: 'demandLimit' });
    const free = decide(input({ minuteOfDay: at('02:00'), tactic, m: { gridPowerKw: 300 } }));
    expect(free.setpointKw).toBe(-100);
    expect(free.limitedBy).toBeUndefined();
  });
});

describe('safety clamp', () => {
  const peak = { strategy: 'capacityExpansion' as const, params: { transformerKw: 100 }, template: template() };

  it('holds a discharge to the PCS rating and to the BMS limit, whichever is lower', () => {
    expect(decide(input({ tactic: peak, m: { gridPowerKw: 400, bmsDischargeLimitKw: 280 } }))).toMatchObject({
      setpointKw: 250,
      limitedBy: 'rating',
    });
    expect(decide(input({ tactic: peak, m: { gridPowerKw: 400, bmsDischargeLimitKw: 120 } }))).toMatchObject({
      setpointKw: 120,
      limitedBy: 'bms',
    });
  });

  it('holds a charge to the BMS charge limit; a BMS that allows none stops it', () => {
    expect(decide(input({ minuteOfDay: at('02:00'), m: { bmsChargeLimitKw: 80 } }))).toMatchObject({
      setpointKw: -80,
      limitedBy: 'bms',
    });
    expect(decide(input({ minuteOfDay: at('02:00'), m: { bmsChargeLimitKw: 0 } }))).toMatchObject({
      setpointKw: 0,
      limitedBy: 'bms',
    });
  });

  it('overrides the grid limits: a BMS limit below what the demand limit needs wins', () => {
    const limited = template({ demandControl: { enabled: true, limitKw: 500 } });
    const step = decide(
      input({
        tactic: { strategy: 'idle', params: {}, template: limited },
        m: { gridPowerKw: 700, bmsDischargeLimitKw: 150 },
      }),
    );
    expect(step).toMatchObject({ setpointKw: 150, limitedBy: 'bms' });
  });
});

describe('demand response', () => {
  const event = { id: 'dr-7', startTs: 1000, endTs: 2000, kw: 70 };

  it('delivers the event kW whatever the strategy says, within the safety clamp', () => {
    expect(decide(input({ demandResponse: event, minuteOfDay: at('02:00') }))).toMatchObject({
      setpointKw: 70,
      demandResponse: 'dr-7',
    });
    expect(decide(input({ demandResponse: event, m: { bmsDischargeLimitKw: 50 } }))).toMatchObject({
      setpointKw: 50,
      limitedBy: 'bms',
      demandResponse: 'dr-7',
    });
    expect(decide(input({ demandResponse: { ...event, kw: -120 }, m: { soc: 95 } }))).toMatchObject({
      setpointKw: 0,
      limitedBy: 'soc',
    });
  });

  it('is in force from its start to its end; the latest-starting of overlapping events wins', () => {
    const later = { id: 'dr-8', startTs: 1500, endTs: 1800, kw: -40 };
    expect(activeDemandResponse([event, later], 999)).toBeUndefined();
    expect(activeDemandResponse([event, later], 1000)?.id).toBe('dr-7');
    expect(activeDemandResponse([event, later], 1600)?.id).toBe('dr-8');
    expect(activeDemandResponse([event, later], 1900)?.id).toBe('dr-7');
    expect(activeDemandResponse([event, later], 2000)).toBeUndefined();
  });
});
