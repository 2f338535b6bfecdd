// Turns a command or a configuration change into the exact Modbus writes a cloud module performs,
// and refuses what the document says must be refused, before anything is sent.
import { configParamField, encodeFieldValue, fieldSpan, type DecodedValues } from './codec.ts';
import type { CommandDefinition, ConfigParam, ProtocolDocument } from './schema.ts';
import { evaluateCondition } from './status.ts';
import type { ProtocolText } from './text.ts';

/** One Modbus write as the gateway executes it. */
export type PlannedWrite =
  | { fc: 5; address: number; value: boolean }
  | { fc: 6; address: number; value: number }
  | { fc: 16; address: number; values: number[] };

export function findCommand(doc: ProtocolDocument, key: string): CommandDefinition | undefined {
  return doc.commands.find((command) => command.key === key);
}

export function planCommandWrites(command: CommandDefinition): PlannedWrite[] {
  return command.writes.map((write): PlannedWrite => {
    switch (write.fc) {
      case 5:
        return { fc: 5, address: write.address, value: write.value === 1 };
      case 6:
        return { fc: 6, address: write.address, value: write.value };
      case 16:
        return 'key' in write
          ? { fc: 16, address: write.address, values: [write.key, 65535 - write.key] }
          : { fc: 16, address: write.address, values: [...write.values] };
    }
  });
}

/**
 * The reason to refuse a command given the latest decoded values, or null when it may be sent.
 * A precondition whose item has no value yet does not refuse: the controller has the last word.
 */
export function checkCommandPreconditions(command: CommandDefinition, values: DecodedValues): ProtocolText | null {
  for (const precondition of command.preconditions) {
    if (evaluateCondition(precondition.refuseWhen, values[precondition.item])) return precondition.reason;
  }
  return null;
}

export type ConfigWritePlan = { ok: true; write: PlannedWrite } | { ok: false; reason: string };

export function findConfigParam(doc: ProtocolDocument, key: string): ConfigParam | undefined {
  return doc.configParams.find((param) => param.key === key);
}

/** Range- and option-checks an engineering value and encodes it as the write the parameter asks for. */
export function planConfigWrite(param: ConfigParam, value: number): ConfigWritePlan {
  if (!Number.isFinite(value)) return { ok: false, reason: `${param.key}: not a number` };
  if (value < param.min || value > param.max) {
    return { ok: false, reason: `${param.key}: ${value} is outside ${param.min}…${param.max} ${param.unit}`.trim() };
  }
  if (param.options && !param.options.some((option) => option.value === value)) {
    return { ok: false, reason: `${param.key}: ${value} is not one of the options` };
  }
  const words = encodeFieldValue(configParamField(param), value);
  const fc = param.writeFc ?? (fieldSpan(param.type) === 2 ? 16 : 6);
  if (fc === 6 && words.length === 1) return { ok: true, write: { fc: 6, address: param.address, value: words[0]! } };
  return { ok: true, write: { fc: 16, address: param.address, values: words } };
}
