// Checks a protocol document before it is stored or used, naming the exact place of every problem
// (e.g. "items[4](gen_kw).address"), so the person editing the register map can fix it.
import { bitFieldRange, fieldSpan, isBitFunctionCode } from './codec.ts';
import { maxReadCount } from './poll-blocks.ts';
import type { z } from 'zod';
import {
  dataTypeSchema,
  DOCUMENT_KEY_PATTERN,
  ENTRY_KEY_PATTERN,
  fillProblemText,
  MODULE_SOURCES,
  protocolDocumentSchema,
  SHAPE_RULE_TEXTS,
  type BitField,
  type EnumOption,
  type ProtocolDocument,
  type ReadFunctionCode,
} from './schema.ts';
import { PROTOCOL_LANGUAGES } from './text.ts';

/**
 * Every rule a protocol document can break, by message key, with its English text. `{name}` placeholders are
 * filled from a problem's params; a server holds the same keys in the other languages.
 */
export const PROTOCOL_PROBLEM_TEXTS = {
  // Shape rules written with the schema.
  ...SHAPE_RULE_TEXTS,
  'protocolDoc.missingTranslation': 'missing translation',
  // Shape rules of the schema library itself, told generically.
  'protocolDoc.required': 'required',
  'protocolDoc.expectedString': 'must be text',
  'protocolDoc.expectedNumber': 'must be a number',
  'protocolDoc.expectedInteger': 'must be a whole number',
  'protocolDoc.expectedBoolean': 'must be true or false',
  'protocolDoc.expectedArray': 'must be a list',
  'protocolDoc.expectedObject': 'must be an object',
  'protocolDoc.expectedType': 'must be of type {expected}',
  'protocolDoc.tooSmall': 'must be at least {minimum}',
  'protocolDoc.notAbove': 'must be greater than {minimum}',
  'protocolDoc.tooBig': 'must be at most {maximum}',
  'protocolDoc.notBelow': 'must be less than {maximum}',
  'protocolDoc.emptyText': 'must not be empty',
  'protocolDoc.tooShort': 'needs at least {minimum} characters',
  'protocolDoc.tooLong': 'takes at most {maximum} characters',
  'protocolDoc.tooFewEntries': 'needs at least {minimum} entries',
  'protocolDoc.tooManyEntries': 'takes at most {maximum} entries',
  'protocolDoc.notMultipleOf': 'must be a multiple of {divisor}',
  'protocolDoc.invalidFormat': 'is not in the expected format',
  'protocolDoc.notOneOf': '{value} is not allowed: use {allowed}',
  'protocolDoc.noVariant': 'matches none of the allowed forms',
  'protocolDoc.unknownFields': 'unknown field(s): {keys}',
  'protocolDoc.invalid': 'is not valid',
  // Rules of meaning.
  'protocolDoc.duplicateKey': 'duplicate key "{key}", also {other}',
  'protocolDoc.duplicateCode': 'duplicate code "{code}", also {other}',
  'protocolDoc.duplicateValue': 'duplicate value {value}',
  'protocolDoc.bitFcType': 'fc {fc} reads single bits: the type must be "bit"',
  'protocolDoc.bitFcIndex': 'fc {fc} items are bits already: remove the bit index',
  'protocolDoc.bitIndexMissing': 'a bit inside register {address} needs its bit index (0–15)',
  'protocolDoc.bitIndexNotBit': 'only "bit" items take a bit index',
  'protocolDoc.itemWordOrder': 'word order applies to 32-bit types only, not {type}',
  'protocolDoc.pastEnd': '{type} at {address} runs past address 65535',
  'protocolDoc.overlaps': 'fc {fc} address {address} overlaps {other}',
  'protocolDoc.unknownItem': 'unknown item "{item}"',
  'protocolDoc.bitConditionItem': 'a bit condition needs an unscaled integer item; "{item}" is {type}',
  'protocolDoc.bitMissing': 'bit {bit} does not exist in a {type}',
  'protocolDoc.writePastEnd': 'write runs past address 65535',
  'protocolDoc.inputMissing': 'an "inputs" item names its input',
  'protocolDoc.inputNotInputs': 'only "inputs" items name an input, not "{source}"',
  'protocolDoc.sourceShown': '"{source}" is already shown by {other}',
  'protocolDoc.bitsType': 'bits apply to 16-bit integer parameters (u16, s16) only, not {type}',
  'protocolDoc.bitsPastEnd': 'bits {first}…{last} run past bit 15 of the 16-bit register',
  'protocolDoc.minOutsideBit': 'min {value} does not fit in bit {bit} (raw {low}…{high})',
  'protocolDoc.minOutsideBits': 'min {value} does not fit in bits {first}…{last} (raw {low}…{high})',
  'protocolDoc.maxOutsideBit': 'max {value} does not fit in bit {bit} (raw {low}…{high})',
  'protocolDoc.maxOutsideBits': 'max {value} does not fit in bits {first}…{last} (raw {low}…{high})',
  'protocolDoc.optionOutsideBit': 'option {value} does not fit in bit {bit} (raw {low}…{high})',
  'protocolDoc.optionOutsideBits': 'option {value} does not fit in bits {first}…{last} (raw {low}…{high})',
  'protocolDoc.writeFcPacked': 'bits of register {address} are written together: use fc {fc}, as {other}',
  'protocolDoc.minAboveMax': 'min {min} is above max {max}',
  'protocolDoc.unknownMenu': 'unknown menu "{menu}"',
  'protocolDoc.paramWordOrder': 'word order applies to 32-bit types only',
  'protocolDoc.writeFc32': 'a 32-bit parameter needs fc 16 (two registers)',
  'protocolDoc.unknownOptionList': 'unknown option list "{list}"',
  'protocolDoc.optionsOfList': 'must be the options of option list "{list}"',
  'protocolDoc.optionOutsideRange': 'option {value} is outside {min}…{max}',
  'protocolDoc.registerOverlaps': 'holding register {address} overlaps {other}',
  'protocolDoc.registerBitOverlaps': 'holding register {address} bit {bit} overlaps {other}',
  'protocolDoc.registerBitsOverlap': 'holding register {address} bits {first}…{last} overlaps {other}',
  'protocolDoc.notRead': 'no configReadBlocks entry reads registers {first}…{last}',
  'protocolDoc.menuCycle': 'menu parents form a cycle through "{menu}"',
  'protocolDoc.readLimit': '{count} exceeds the Modbus limit of {limit} per read for fc {fc}',
  'protocolDoc.blockPastEnd': 'block runs past address 65535',
  // Rules of what a server stores and of its dropdown edits.
  'protocolDoc.keyTooLong': 'use at most {maximum} characters',
  'protocolDoc.unknownParam': 'unknown configuration parameter "{param}"',
} as const;
export type ProtocolRule = keyof typeof PROTOCOL_PROBLEM_TEXTS;
export const PROTOCOL_RULES = Object.keys(PROTOCOL_PROBLEM_TEXTS) as ProtocolRule[];
export type ProblemParams = Record<string, string | number>;

export interface ProtocolProblem {
  /** Where, e.g. `items[3](gen_kw).name.tr-TR` or `configReadBlocks[0].count`. */
  path: string;
  /** The rule broken, a message key, e.g. `protocolDoc.overlaps`. */
  rule: ProtocolRule;
  /** The values its text names, e.g. `{ fc: 3, address: 40, other: 'items[2](gen_kw)' }`. */
  params: ProblemParams;
  /** The problem in English, for readers without a language. */
  message: string;
}

/** A problem at a place, its English text filled from the rule. */
export function protocolProblem(path: string, rule: ProtocolRule, params: ProblemParams = {}): ProtocolProblem {
  return { path, rule, params, message: fillProblemText(PROTOCOL_PROBLEM_TEXTS[rule], params) };
}

const KEY_FIELDS: Record<string, string> = {
  items: 'key',
  alarms: 'code',
  commands: 'key',
  configParams: 'key',
  configMenus: 'key',
  moduleItems: 'key',
  optionLists: 'key',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Formats a path, adding the key of listed objects so "items[41]" reads as "items[41](oil_pressure)". */
function describePath(input: unknown, path: readonly PropertyKey[]): string {
  let text = '';
  let node: unknown = input;
  path.forEach((segment, depth) => {
    if (typeof segment === 'number') {
      node = Array.isArray(node) ? node[segment] : undefined;
      const parent = path[depth - 1];
      const keyField = depth === 1 && typeof parent === 'string' ? KEY_FIELDS[parent] : undefined;
      const key = keyField && isRecord(node) ? node[keyField] : undefined;
      text += typeof key === 'string' ? `[${segment}](${key})` : `[${segment}]`;
    } else {
      node = isRecord(node) ? node[segment as string] : undefined;
      text += text ? `.${String(segment)}` : String(segment);
    }
  });
  return text || '(document)';
}

/** The value at a path of the input, if there is one. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const segment of path) {
    if (!isRecord(node)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}

/** A value as a problem names it: JSON, kept short. */
function shown(value: unknown): string {
  const text = String(JSON.stringify(value));
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

const LANGUAGES = new Set<PropertyKey>(PROTOCOL_LANGUAGES);
const DATA_TYPES = new Set<unknown>(dataTypeSchema.options);
const SOURCES = new Set<unknown>(MODULE_SOURCES);

const EXPECTED_RULES: Partial<Record<string, ProtocolRule>> = {
  string: 'protocolDoc.expectedString',
  number: 'protocolDoc.expectedNumber',
  int: 'protocolDoc.expectedInteger',
  boolean: 'protocolDoc.expectedBoolean',
  array: 'protocolDoc.expectedArray',
  object: 'protocolDoc.expectedObject',
};

/** Schema texts that carry no values, recognised by their wording. */
const FIXED_SHAPE_RULES = new Map<string, ProtocolRule>(
  (Object.entries(SHAPE_RULE_TEXTS) as [ProtocolRule, string][])
    .filter(([, text]) => !/\{\w+\}/.test(text))
    .map(([rule, text]) => [text, rule]),
);

function isRule(value: unknown): value is ProtocolRule {
  return typeof value === 'string' && Object.hasOwn(PROTOCOL_PROBLEM_TEXTS, value);
}

/** The rule a schema issue breaks, with its params; `value` is what the input holds at the issue's path. */
function ruleOfIssue(issue: z.core.$ZodIssue, value: unknown): [ProtocolRule, ProblemParams?] {
  const last = issue.path.at(-1);
  if (last !== undefined && LANGUAGES.has(last) && (issue.code === 'invalid_type' || issue.code === 'too_small')) {
    return ['protocolDoc.missingTranslation'];
  }
  const fixed = FIXED_SHAPE_RULES.get(issue.message);
  if (fixed) return [fixed];
  if (value === undefined && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code)) {
    return ['protocolDoc.required'];
  }
  switch (issue.code) {
    case 'invalid_type': {
      const rule = EXPECTED_RULES[issue.expected];
      return rule ? [rule] : ['protocolDoc.expectedType', { expected: issue.expected }];
    }
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'array' || issue.origin === 'set') return ['protocolDoc.tooFewEntries', { minimum }];
      if (issue.origin === 'string')
        return minimum <= 1 ? ['protocolDoc.emptyText'] : ['protocolDoc.tooShort', { minimum }];
      return [issue.inclusive === false ? 'protocolDoc.notAbove' : 'protocolDoc.tooSmall', { minimum }];
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'array' || issue.origin === 'set') return ['protocolDoc.tooManyEntries', { maximum }];
      if (issue.origin === 'string') return ['protocolDoc.tooLong', { maximum }];
      return [issue.inclusive === false ? 'protocolDoc.notBelow' : 'protocolDoc.tooBig', { maximum }];
    }
    case 'invalid_format':
      if (issue.format === 'regex' && String(issue.pattern) === String(ENTRY_KEY_PATTERN)) {
        return ['protocolDoc.keyFormat'];
      }
      if (issue.format === 'regex' && String(issue.pattern) === String(DOCUMENT_KEY_PATTERN)) {
        return ['protocolDoc.protocolKeyFormat'];
      }
      return ['protocolDoc.invalidFormat'];
    case 'invalid_value': {
      const allowed = issue.values.map(String).join(', ');
      if (issue.values.every((option) => DATA_TYPES.has(option))) {
        return ['protocolDoc.unknownType', { value: shown(value), allowed }];
      }
      if (issue.values.every((option) => SOURCES.has(option))) {
        return ['protocolDoc.unknownSource', { value: shown(value), allowed }];
      }
      return ['protocolDoc.notOneOf', { value: shown(value), allowed }];
    }
    case 'invalid_union': {
      if ('options' in issue && issue.options && issue.discriminator !== undefined) {
        return ['protocolDoc.notOneOf', { value: shown(value), allowed: issue.options.map(String).join(', ') }];
      }
      // A union of single values (e.g. fc 1, 2, 3 or 4) is an enumeration.
      const values = issue.errors.map((branch) =>
        branch.length === 1 && branch[0]!.code === 'invalid_value' && branch[0]!.path.length === 0
          ? branch[0]!.values
          : undefined,
      );
      if (values.length > 0 && values.every((list) => list !== undefined)) {
        return ['protocolDoc.notOneOf', { value: shown(value), allowed: values.flat().map(String).join(', ') }];
      }
      return ['protocolDoc.noVariant'];
    }
    case 'unrecognized_keys':
      return ['protocolDoc.unknownFields', { keys: issue.keys.join(', ') }];
    case 'not_multiple_of':
      return ['protocolDoc.notMultipleOf', { divisor: Number(issue.divisor) }];
    case 'custom': {
      const rule: unknown = issue.params?.rule;
      return [isRule(rule) ? rule : 'protocolDoc.invalid'];
    }
    default:
      return ['protocolDoc.invalid'];
  }
}

/**
 * A schema issue as a problem at `path`: its rule and params, and the English text of that rule. `input` is
 * the value the issue's path starts from.
 */
export function problemOfIssue(issue: z.core.$ZodIssue, input: unknown, path: string): ProtocolProblem {
  const [rule, params] = ruleOfIssue(issue, valueAt(input, issue.path));
  return protocolProblem(path, rule, params);
}

/** Who holds a register: one value, or bits of it (a bit item, or a parameter at a field of bits). */
type Occupant = { kind: 'word'; owner: string } | { kind: 'bits'; owners: Map<number, string> };

/** The params naming a field of bits: `bit` for a single one, `first` and `last` for several. */
function bitsParams(bits: BitField): ProblemParams {
  return bits.count === 1 ? { bit: bits.start } : { first: bits.start, last: bits.start + bits.count - 1 };
}

class AddressSpace {
  private readonly planes = new Map<ReadFunctionCode, Map<number, Occupant>>();

  /**
   * Claims the addresses, whole or (for a single register) only the given bits; returns the owner already
   * there when they clash. Bits of one register clash only where they overlap.
   */
  claim(fc: ReadFunctionCode, address: number, span: number, owner: string, bits?: BitField): string | undefined {
    let plane = this.planes.get(fc);
    if (!plane) this.planes.set(fc, (plane = new Map()));
    const indexes = bits ? Array.from({ length: bits.count }, (_, i) => bits.start + i) : [];
    for (let at = address; at < address + span; at++) {
      const occupant = plane.get(at);
      if (!occupant) continue;
      if (occupant.kind === 'word') return occupant.owner;
      if (!bits) return [...occupant.owners.values()][0];
      for (const index of indexes) {
        const clash = occupant.owners.get(index);
        if (clash) return clash;
      }
    }
    for (let at = address; at < address + span; at++) {
      if (!bits) {
        plane.set(at, { kind: 'word', owner });
        continue;
      }
      let occupant = plane.get(at);
      if (occupant?.kind !== 'bits') plane.set(at, (occupant = { kind: 'bits', owners: new Map() }));
      for (const index of indexes) occupant.owners.set(index, owner);
    }
    return undefined;
  }
}

function checkDuplicates(
  list: readonly { key: string }[],
  listName: string,
  problems: ProtocolProblem[],
  field = 'key',
) {
  const seen = new Map<string, number>();
  list.forEach((entry, index) => {
    const first = seen.get(entry.key);
    if (first !== undefined) {
      const other = `${listName}[${first}]`;
      problems.push(
        field === 'code'
          ? protocolProblem(`${listName}[${index}](${entry.key}).code`, 'protocolDoc.duplicateCode', {
              code: entry.key,
              other,
            })
          : protocolProblem(`${listName}[${index}](${entry.key}).${field}`, 'protocolDoc.duplicateKey', {
              key: entry.key,
              other,
            }),
      );
    } else {
      seen.set(entry.key, index);
    }
  });
}

function checkOptionValues(options: readonly EnumOption[] | undefined, at: string, problems: ProtocolProblem[]) {
  const values = new Set<number>();
  options?.forEach((option, index) => {
    if (values.has(option.value))
      problems.push(protocolProblem(`${at}[${index}].value`, 'protocolDoc.duplicateValue', { value: option.value }));
    values.add(option.value);
  });
}

function sameOptions(a: readonly EnumOption[], b: readonly EnumOption[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkSemantics(doc: ProtocolDocument): ProtocolProblem[] {
  const problems: ProtocolProblem[] = [];
  const add = (path: string, rule: ProtocolRule, params?: ProblemParams) =>
    problems.push(protocolProblem(path, rule, params));
  const itemKeys = new Set(doc.items.map((item) => item.key));
  const space = new AddressSpace();

  checkDuplicates(doc.items, 'items', problems);
  checkDuplicates(
    doc.alarms.map((alarm) => ({ key: alarm.code })),
    'alarms',
    problems,
    'code',
  );
  checkDuplicates(doc.commands, 'commands', problems);
  checkDuplicates(doc.configParams, 'configParams', problems);
  checkDuplicates(doc.configMenus, 'configMenus', problems);
  checkDuplicates(doc.moduleItems, 'moduleItems', problems);
  checkDuplicates(doc.optionLists, 'optionLists', problems);

  doc.items.forEach((item, index) => {
    const at = `items[${index}](${item.key})`;
    const bitFc = isBitFunctionCode(item.fc);
    const span = bitFc ? 1 : fieldSpan(item.type);
    if (bitFc && item.type !== 'bit') add(`${at}.type`, 'protocolDoc.bitFcType', { fc: item.fc });
    if (bitFc && item.bit !== undefined) add(`${at}.bit`, 'protocolDoc.bitFcIndex', { fc: item.fc });
    if (!bitFc && item.type === 'bit' && item.bit === undefined) {
      add(`${at}.bit`, 'protocolDoc.bitIndexMissing', { address: item.address });
    }
    if (item.type !== 'bit' && item.bit !== undefined) add(`${at}.bit`, 'protocolDoc.bitIndexNotBit');
    if (item.wordOrder !== undefined && fieldSpan(item.type) !== 2) {
      add(`${at}.wordOrder`, 'protocolDoc.itemWordOrder', { type: item.type });
    }
    if (item.address + span > 65536)
      add(`${at}.address`, 'protocolDoc.pastEnd', { type: item.type, address: item.address });
    const bit = item.type === 'bit' && !bitFc && item.bit !== undefined ? { start: item.bit, count: 1 } : undefined;
    const clash = space.claim(item.fc, item.address, span, at, bit);
    if (clash) add(`${at}.address`, 'protocolDoc.overlaps', { fc: item.fc, address: item.address, other: clash });
    checkOptionValues(item.enum, `${at}.enum`, problems);
  });

  doc.alarms.forEach((alarm, index) => {
    const at = `alarms[${index}](${alarm.code})`;
    const item = doc.items.find((candidate) => candidate.key === alarm.item);
    if (!item) {
      add(`${at}.item`, 'protocolDoc.unknownItem', { item: alarm.item });
      return;
    }
    if (alarm.condition.op === 'bit') {
      if (item.type === 'float32' || item.type === 'bit' || item.scale !== 1 || item.offset !== 0) {
        add(`${at}.condition`, 'protocolDoc.bitConditionItem', { item: item.key, type: item.type });
      } else if (alarm.condition.bit >= fieldSpan(item.type) * 16) {
        add(`${at}.condition.bit`, 'protocolDoc.bitMissing', { bit: alarm.condition.bit, type: item.type });
      }
    }
  });

  doc.commands.forEach((command, index) => {
    const at = `commands[${index}](${command.key})`;
    command.writes.forEach((write, writeIndex) => {
      const count = write.fc === 16 ? ('key' in write ? 2 : write.values.length) : 1;
      if (write.address + count > 65536) add(`${at}.writes[${writeIndex}].address`, 'protocolDoc.writePastEnd');
    });
    command.preconditions.forEach((precondition, preconditionIndex) => {
      if (!itemKeys.has(precondition.item)) {
        add(`${at}.preconditions[${preconditionIndex}].item`, 'protocolDoc.unknownItem', { item: precondition.item });
      }
    });
  });

  doc.moduleItems.forEach((entry, index) => {
    const at = `moduleItems[${index}](${entry.key})`;
    if (entry.source === 'inputs' && entry.input === undefined) add(`${at}.input`, 'protocolDoc.inputMissing');
    if (entry.source !== 'inputs' && entry.input !== undefined) {
      add(`${at}.input`, 'protocolDoc.inputNotInputs', { source: entry.source });
    }
    const twin = doc.moduleItems.findIndex(
      (other) => other.source === entry.source && (other.input ?? '') === (entry.input ?? ''),
    );
    if (twin < index) {
      const what = entry.input === undefined ? entry.source : `${entry.source}:${entry.input}`;
      add(`${at}.source`, 'protocolDoc.sourceShown', { source: what, other: `moduleItems[${twin}]` });
    }
  });

  doc.optionLists.forEach((list, index) => {
    checkOptionValues(list.options, `optionLists[${index}](${list.key}).options`, problems);
  });

  const menuKeys = new Set(doc.configMenus.map((menu) => menu.key));
  /** The first parameter at bits of each register, to hold the others of that register to its write fc. */
  const packedBy = new Map<number, { at: string; fc: 6 | 16 }>();
  doc.configParams.forEach((param, index) => {
    const at = `configParams[${index}](${param.key})`;
    const span = fieldSpan(param.type);
    const { bits } = param;
    let field: [number, number] | undefined;
    if (bits) {
      if (param.type !== 'u16' && param.type !== 's16') {
        add(`${at}.bits`, 'protocolDoc.bitsType', { type: param.type });
      } else if (bits.start + bits.count > 16) {
        add(`${at}.bits.count`, 'protocolDoc.bitsPastEnd', { first: bits.start, last: bits.start + bits.count - 1 });
      } else {
        field = bitFieldRange(param.type, bits);
      }
    }
    if (field) {
      const [low, high] = field;
      /** Whether an engineering value's raw number (as a write would round it) lies outside the field. */
      const misfit = (value: number) => {
        const raw = Math.round((value - param.offset) / param.scale);
        return raw < low || raw > high;
      };
      const single = bits!.count === 1;
      const fieldParams = { ...bitsParams(bits!), low, high };
      if (misfit(param.min)) {
        add(`${at}.min`, single ? 'protocolDoc.minOutsideBit' : 'protocolDoc.minOutsideBits', {
          value: param.min,
          ...fieldParams,
        });
      }
      if (misfit(param.max)) {
        add(`${at}.max`, single ? 'protocolDoc.maxOutsideBit' : 'protocolDoc.maxOutsideBits', {
          value: param.max,
          ...fieldParams,
        });
      }
      param.options?.forEach((option, optionIndex) => {
        if (misfit(option.value)) {
          add(
            `${at}.options[${optionIndex}].value`,
            single ? 'protocolDoc.optionOutsideBit' : 'protocolDoc.optionOutsideBits',
            { value: option.value, ...fieldParams },
          );
        }
      });
      const fc = param.writeFc ?? 6;
      const first = packedBy.get(param.address);
      if (!first) packedBy.set(param.address, { at, fc });
      else if (first.fc !== fc) {
        add(`${at}.writeFc`, 'protocolDoc.writeFcPacked', { address: param.address, fc: first.fc, other: first.at });
      }
    }
    if (param.min > param.max) add(`${at}.min`, 'protocolDoc.minAboveMax', { min: param.min, max: param.max });
    if (!menuKeys.has(param.menu)) add(`${at}.menu`, 'protocolDoc.unknownMenu', { menu: param.menu });
    if (param.wordOrder !== undefined && span !== 2) add(`${at}.wordOrder`, 'protocolDoc.paramWordOrder');
    if (param.writeFc === 6 && span === 2) add(`${at}.writeFc`, 'protocolDoc.writeFc32');
    if (param.address + span > 65536)
      add(`${at}.address`, 'protocolDoc.pastEnd', { type: param.type, address: param.address });
    checkOptionValues(param.options, `${at}.options`, problems);
    if (param.optionList !== undefined) {
      const list = doc.optionLists.find((candidate) => candidate.key === param.optionList);
      if (!list) add(`${at}.optionList`, 'protocolDoc.unknownOptionList', { list: param.optionList });
      else if (!param.options || !sameOptions(param.options, list.options)) {
        add(`${at}.options`, 'protocolDoc.optionsOfList', { list: list.key });
      }
    }
    param.options?.forEach((option, optionIndex) => {
      if (option.value < param.min || option.value > param.max) {
        add(`${at}.options[${optionIndex}].value`, 'protocolDoc.optionOutsideRange', {
          value: option.value,
          min: param.min,
          max: param.max,
        });
      }
    });
    // Bits that cannot be placed are refused above; where they would sit is left unclaimed.
    const clash = bits && !field ? undefined : space.claim(3, param.address, span, at, bits);
    if (clash) {
      const rule = !field
        ? 'protocolDoc.registerOverlaps'
        : bits!.count === 1
          ? 'protocolDoc.registerBitOverlaps'
          : 'protocolDoc.registerBitsOverlap';
      add(`${at}.address`, rule, { address: param.address, ...(field ? bitsParams(bits!) : {}), other: clash });
    }
    const covered = doc.configReadBlocks.some(
      (block) => block.fc === 3 && block.start <= param.address && param.address + span <= block.start + block.count,
    );
    if (!covered) add(`${at}.address`, 'protocolDoc.notRead', { first: param.address, last: param.address + span - 1 });
  });

  doc.configMenus.forEach((menu, index) => {
    const at = `configMenus[${index}](${menu.key})`;
    if (menu.parent === undefined) return;
    if (!menuKeys.has(menu.parent)) {
      add(`${at}.parent`, 'protocolDoc.unknownMenu', { menu: menu.parent });
      return;
    }
    // Walk up the parents; coming back to this menu means a cycle.
    const visited = new Set([menu.key]);
    let parent: string | undefined = menu.parent;
    while (parent !== undefined) {
      if (visited.has(parent)) {
        add(`${at}.parent`, 'protocolDoc.menuCycle', { menu: parent });
        break;
      }
      visited.add(parent);
      parent = doc.configMenus.find((candidate) => candidate.key === parent)?.parent;
    }
  });

  doc.configReadBlocks.forEach((block, index) => {
    const at = `configReadBlocks[${index}]`;
    const limit = maxReadCount(block.fc);
    if (block.count > limit) add(`${at}.count`, 'protocolDoc.readLimit', { count: block.count, limit, fc: block.fc });
    if (block.start + block.count > 65536) add(`${at}.count`, 'protocolDoc.blockPastEnd');
  });

  const rules = doc.statusRules;
  if (rules) {
    const references: [string, string | undefined][] = [
      ['statusRules.modeItem', rules.modeItem],
      ['statusRules.engineStateItem', rules.engineStateItem],
      ['statusRules.onLoadItem', rules.onLoadItem],
      ['statusRules.alarmFlags.common', rules.alarmFlags.common],
      ['statusRules.alarmFlags.warning', rules.alarmFlags.warning],
      ['statusRules.alarmFlags.shutdown', rules.alarmFlags.shutdown],
      ['statusRules.alarmFlags.trip', rules.alarmFlags.trip],
    ];
    for (const [path, key] of references) {
      if (key !== undefined && !itemKeys.has(key)) add(path, 'protocolDoc.unknownItem', { item: key });
    }
  }
  return problems;
}

/** All problems of a document (shape first; meaning only once the shape is right). Empty means usable. */
export function validateProtocolDocument(input: unknown): ProtocolProblem[] {
  const parsed = protocolDocumentSchema.safeParse(input);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => problemOfIssue(issue, input, describePath(input, issue.path)));
  }
  return checkSemantics(parsed.data);
}

export class ProtocolDocumentError extends Error {
  constructor(readonly problems: ProtocolProblem[]) {
    super(`invalid protocol document: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`);
    this.name = 'ProtocolDocumentError';
  }
}

/** Parses and validates, throwing ProtocolDocumentError with every problem named. */
export function parseProtocolDocument(input: unknown): ProtocolDocument {
  const problems = validateProtocolDocument(input);
  if (problems.length > 0) throw new ProtocolDocumentError(problems);
  return protocolDocumentSchema.parse(input);
}
