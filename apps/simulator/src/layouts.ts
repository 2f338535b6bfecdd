// How each seed layout numbers the model's mode and engine state, and how alarm items are filled from the
// document's own alarm list, so that encoding is driven by the same protocol document the server decodes with.
import { LAYOUT_G_MODES, LAYOUT_S_MODES, layoutG, layoutS, type ProtocolDocument } from '@genset/protocol';
import type { ControllerMode, EngineState, GensetModel } from './genset-model.ts';

export type LayoutName = 'S' | 'G';

export interface LayoutAdapter {
  name: LayoutName;
  document: ProtocolDocument;
  modeCode: Record<ControllerMode, number>;
  engineStateCode: (state: EngineState, blockedByAlarm: boolean) => number;
}

const S_ENGINE_STATES: Record<EngineState, number> = {
  at_rest: 0,
  start_delay: 1,
  preheat: 2,
  crank: 3,
  crank_rest: 4,
  safety_on: 5,
  start_idle: 6,
  warm_up: 7,
  running: 8,
  on_load: 9,
  cooling: 10,
  stopping: 12,
};

// The GenComm-style register is coarser: several sequence steps share one value.
const G_ENGINE_STATES: Record<EngineState, number> = {
  at_rest: 0,
  start_delay: 1,
  preheat: 1,
  crank: 2,
  crank_rest: 2,
  safety_on: 3,
  start_idle: 3,
  warm_up: 3,
  running: 4,
  on_load: 4,
  cooling: 5,
  stopping: 6,
};

export const LAYOUTS: Record<LayoutName, LayoutAdapter> = {
  S: {
    name: 'S',
    document: layoutS,
    modeCode: LAYOUT_S_MODES,
    // "Alarm shutdown" (15) is what the panel shows at rest while a shutdown is latched.
    engineStateCode: (state, blocked) => (state === 'at_rest' && blocked ? 15 : S_ENGINE_STATES[state]),
  },
  G: {
    name: 'G',
    document: layoutG,
    modeCode: {
      stop: LAYOUT_G_MODES.stop,
      manual: LAYOUT_G_MODES.manual,
      auto: LAYOUT_G_MODES.auto,
      test: LAYOUT_G_MODES.test,
    },
    engineStateCode: (state) => G_ENGINE_STATES[state],
  },
};

/**
 * The model's values in this layout's terms: mode and engine state numbered, and every alarm item set from
 * the document's alarm conditions (a coil per alarm in S, bits of alarm registers in G).
 */
export function layoutValues(adapter: LayoutAdapter, model: GensetModel): Record<string, number | null> {
  const values = model.values();
  values.mode = adapter.modeCode[model.mode];
  values.engine_state = adapter.engineStateCode(model.engineState, model.blockedByAlarm);
  for (const alarm of adapter.document.alarms) {
    if (alarm.condition.op === 'bit') values[alarm.item] = 0;
  }
  for (const alarm of adapter.document.alarms) {
    const active = model.isAlarmActive(alarm.code);
    const condition = alarm.condition;
    switch (condition.op) {
      case 'set':
        values[alarm.item] = active ? 1 : 0;
        break;
      case 'bit': {
        const current = values[alarm.item] ?? 0;
        if (active && Math.floor(current / 2 ** condition.bit) % 2 === 0)
          values[alarm.item] = current + 2 ** condition.bit;
        break;
      }
      case 'equals':
        if (active) values[alarm.item] = condition.value;
        break;
      case 'in':
        if (active) values[alarm.item] = condition.values[0]!;
        break;
      default:
        break;
    }
  }
  for (const [key, value] of Object.entries(model.settings)) values[key] = value;
  return values;
}
