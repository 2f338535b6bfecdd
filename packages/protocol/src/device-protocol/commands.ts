// Turns a command or a configuration change into the exact Modbus writes a cloud module performs,
// and refuses what the document says must be refused, before anything is sent.
import { configParamField, encodeFieldValue, fieldSpan, placeBitField, type DecodedValues } from './codec.ts';
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

/** Why an engineering value cannot be written to a parameter (not a number, out of range, not an option), or null. */
export function configValueProblem(param: ConfigParam, value: number): string | null {
  if (!Number.isFinite(value)) return `${param.key}: not a number`;
  if (value < param.min || value > param.max) {
    return `${param.key}: ${value} is outside ${param.min}…${param.max} ${param.unit}`.trim();
  }
  if (param.options && !param.options.some((option) => option.value === value)) {
    return `${param.key}: ${value} is not one of the options`;
  }
  return null;
}

/** The function code a parameter is written with: its own, else fc 6 for one register and fc 16 for two. */
export function configWriteFc(param: ConfigParam): 6 | 16 {
  return param.writeFc ?? (fieldSpan(param.type) === 2 ? 16 : 6);
}

function registerWrite(fc: 6 | 16, address: number, words: number[]): PlannedWrite {
  if (fc === 6 && words.length === 1) return { fc: 6, address, value: words[0]! };
  return { fc: 16, address, values: words };
}

/**
 * Range- and option-checks an engineering value and encodes it as the write the parameter asks for. A parameter
 * at bits of a register needs the register's current value (`word`): its bits are replaced, the others kept.
 */
export function planConfigWrite(param: ConfigParam, value: number, word?: number): ConfigWritePlan {
  const problem = configValueProblem(param, value);
  if (problem) return { ok: false, reason: problem };
  const words = encodeFieldValue(configParamField(param), value);
  if (param.bits) {
    if (word === undefined) {
      return { ok: false, reason: `${param.key}: register ${param.address} must be read before its bits are written` };
    }
    return {
      ok: true,
      write: registerWrite(configWriteFc(param), param.address, [placeBitField(word, param.bits, words[0]!)]),
    };
  }
  return { ok: true, write: registerWrite(configWriteFc(param), param.address, words) };
}

export type ConfigWritesPlan = { ok: true; writes: PlannedWrite[] } | { ok: false; reason: string };

/**
 * The writes of several parameter changes at once. A whole-register parameter gets its own write; parameters at
 * bits of one register are placed together into that register's current value (`current(address)`, from a read
 * just before) and written as one word, so the bits of unchanged parameters keep their value. Nothing is planned
 * when any change is refused.
 */
export function planConfigWrites(
  changes: readonly { param: ConfigParam; value: number }[],
  current: (address: number) => number | undefined,
): ConfigWritesPlan {
  const writes: PlannedWrite[] = [];
  const packed = new Map<number, { at: number; word: number; fc: 6 | 16 }>();
  for (const { param, value } of changes) {
    const entry = param.bits ? packed.get(param.address) : undefined;
    const plan = planConfigWrite(param, value, entry ? entry.word : current(param.address));
    if (!plan.ok) return plan;
    if (!param.bits) {
      writes.push(plan.write);
      continue;
    }
    const word = plan.write.fc === 6 ? plan.write.value : (plan.write as { values: number[] }).values[0]!;
    if (entry) {
      entry.word = word;
      if (plan.write.fc === 16) entry.fc = 16;
    } else {
      packed.set(param.address, { at: writes.length, word, fc: plan.write.fc === 16 ? 16 : 6 });
      writes.push(plan.write);
    }
  }
  for (const [address, entry] of packed) writes[entry.at] = registerWrite(entry.fc, address, [entry.word]);
  return { ok: true, writes };
}
