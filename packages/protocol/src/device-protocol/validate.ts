// Checks a protocol document before it is stored or used, naming the exact place of every problem
// (e.g. "items[4](gen_kw).address"), so the person editing the register map can fix it.
import { bitFieldRange, fieldSpan, isBitFunctionCode } from './codec.ts';
import { maxReadCount } from './poll-blocks.ts';
import {
  protocolDocumentSchema,
  type BitField,
  type EnumOption,
  type ProtocolDocument,
  type ReadFunctionCode,
} from './schema.ts';

export interface ProtocolProblem {
  /** Where, e.g. `items[3](gen_kw).name.tr-TR` or `configReadBlocks[0].count`. */
  path: string;
  message: string;
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

/** Who holds a register: one value, or bits of it (a bit item, or a parameter at a field of bits). */
type Occupant = { kind: 'word'; owner: string } | { kind: 'bits'; owners: Map<number, string> };

/** "bit 3" or "bits 4…5". */
function bitsText(bits: BitField): string {
  return bits.count === 1 ? `bit ${bits.start}` : `bits ${bits.start}…${bits.start + bits.count - 1}`;
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
      problems.push({
        path: `${listName}[${index}](${entry.key}).${field}`,
        message: `duplicate ${field} "${entry.key}", also ${listName}[${first}]`,
      });
    } else {
      seen.set(entry.key, index);
    }
  });
}

function checkOptionValues(options: readonly EnumOption[] | undefined, at: string, problems: ProtocolProblem[]) {
  const values = new Set<number>();
  options?.forEach((option, index) => {
    if (values.has(option.value))
      problems.push({ path: `${at}[${index}].value`, message: `duplicate value ${option.value}` });
    values.add(option.value);
  });
}

function sameOptions(a: readonly EnumOption[], b: readonly EnumOption[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkSemantics(doc: ProtocolDocument): ProtocolProblem[] {
  const problems: ProtocolProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
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
    if (bitFc && item.type !== 'bit') add(`${at}.type`, `fc ${item.fc} reads single bits: the type must be "bit"`);
    if (bitFc && item.bit !== undefined) add(`${at}.bit`, `fc ${item.fc} items are bits already: remove the bit index`);
    if (!bitFc && item.type === 'bit' && item.bit === undefined) {
      add(`${at}.bit`, `a bit inside register ${item.address} needs its bit index (0–15)`);
    }
    if (item.type !== 'bit' && item.bit !== undefined) add(`${at}.bit`, `only "bit" items take a bit index`);
    if (item.wordOrder !== undefined && fieldSpan(item.type) !== 2) {
      add(`${at}.wordOrder`, `word order applies to 32-bit types only, not ${item.type}`);
    }
    if (item.address + span > 65536) add(`${at}.address`, `${item.type} at ${item.address} runs past address 65535`);
    const bit = item.type === 'bit' && !bitFc && item.bit !== undefined ? { start: item.bit, count: 1 } : undefined;
    const clash = space.claim(item.fc, item.address, span, at, bit);
    if (clash) add(`${at}.address`, `fc ${item.fc} address ${item.address} overlaps ${clash}`);
    checkOptionValues(item.enum, `${at}.enum`, problems);
  });

  doc.alarms.forEach((alarm, index) => {
    const at = `alarms[${index}](${alarm.code})`;
    const item = doc.items.find((candidate) => candidate.key === alarm.item);
    if (!item) {
      add(`${at}.item`, `unknown item "${alarm.item}"`);
      return;
    }
    if (alarm.condition.op === 'bit') {
      if (item.type === 'float32' || item.type === 'bit' || item.scale !== 1 || item.offset !== 0) {
        add(`${at}.condition`, `a bit condition needs an unscaled integer item; "${item.key}" is ${item.type}`);
      } else if (alarm.condition.bit >= fieldSpan(item.type) * 16) {
        add(`${at}.condition.bit`, `bit ${alarm.condition.bit} does not exist in a ${item.type}`);
      }
    }
  });

  doc.commands.forEach((command, index) => {
    const at = `commands[${index}](${command.key})`;
    command.writes.forEach((write, writeIndex) => {
      const count = write.fc === 16 ? ('key' in write ? 2 : write.values.length) : 1;
      if (write.address + count > 65536) add(`${at}.writes[${writeIndex}].address`, `write runs past address 65535`);
    });
    command.preconditions.forEach((precondition, preconditionIndex) => {
      if (!itemKeys.has(precondition.item)) {
        add(`${at}.preconditions[${preconditionIndex}].item`, `unknown item "${precondition.item}"`);
      }
    });
  });

  doc.moduleItems.forEach((entry, index) => {
    const at = `moduleItems[${index}](${entry.key})`;
    if (entry.source === 'inputs' && entry.input === undefined) add(`${at}.input`, `an "inputs" item names its input`);
    if (entry.source !== 'inputs' && entry.input !== undefined) {
      add(`${at}.input`, `only "inputs" items name an input, not "${entry.source}"`);
    }
    const twin = doc.moduleItems.findIndex(
      (other) => other.source === entry.source && (other.input ?? '') === (entry.input ?? ''),
    );
    if (twin < index) {
      const what = entry.input === undefined ? entry.source : `${entry.source}:${entry.input}`;
      add(`${at}.source`, `"${what}" is already shown by moduleItems[${twin}]`);
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
        add(`${at}.bits`, `bits apply to 16-bit integer parameters (u16, s16) only, not ${param.type}`);
      } else if (bits.start + bits.count > 16) {
        add(`${at}.bits.count`, `${bitsText(bits)} run past bit 15 of the 16-bit register`);
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
      const fieldText = `${bitsText(bits!)} (raw ${low}…${high})`;
      if (misfit(param.min)) add(`${at}.min`, `min ${param.min} does not fit in ${fieldText}`);
      if (misfit(param.max)) add(`${at}.max`, `max ${param.max} does not fit in ${fieldText}`);
      param.options?.forEach((option, optionIndex) => {
        if (misfit(option.value)) {
          add(`${at}.options[${optionIndex}].value`, `option ${option.value} does not fit in ${fieldText}`);
        }
      });
      const fc = param.writeFc ?? 6;
      const first = packedBy.get(param.address);
      if (!first) packedBy.set(param.address, { at, fc });
      else if (first.fc !== fc) {
        add(
          `${at}.writeFc`,
          `bits of register ${param.address} are written together: use fc ${first.fc}, as ${first.at}`,
        );
      }
    }
    if (param.min > param.max) add(`${at}.min`, `min ${param.min} is above max ${param.max}`);
    if (!menuKeys.has(param.menu)) add(`${at}.menu`, `unknown menu "${param.menu}"`);
    if (param.wordOrder !== undefined && span !== 2) add(`${at}.wordOrder`, `word order applies to 32-bit types only`);
    if (param.writeFc === 6 && span === 2) add(`${at}.writeFc`, `a 32-bit parameter needs fc 16 (two registers)`);
    if (param.address + span > 65536) add(`${at}.address`, `${param.type} at ${param.address} runs past address 65535`);
    checkOptionValues(param.options, `${at}.options`, problems);
    if (param.optionList !== undefined) {
      const list = doc.optionLists.find((candidate) => candidate.key === param.optionList);
      if (!list) add(`${at}.optionList`, `unknown option list "${param.optionList}"`);
      else if (!param.options || !sameOptions(param.options, list.options)) {
        add(`${at}.options`, `must be the options of option list "${list.key}"`);
      }
    }
    param.options?.forEach((option, optionIndex) => {
      if (option.value < param.min || option.value > param.max) {
        add(`${at}.options[${optionIndex}].value`, `option ${option.value} is outside ${param.min}…${param.max}`);
      }
    });
    // Bits that cannot be placed are refused above; where they would sit is left unclaimed.
    const clash = bits && !field ? undefined : space.claim(3, param.address, span, at, bits);
    if (clash) {
      const where = field
        ? `holding register ${param.address} ${bitsText(bits!)}`
        : `holding register ${param.address}`;
      add(`${at}.address`, `${where} overlaps ${clash}`);
    }
    const covered = doc.configReadBlocks.some(
      (block) => block.fc === 3 && block.start <= param.address && param.address + span <= block.start + block.count,
    );
    if (!covered)
      add(`${at}.address`, `no configReadBlocks entry reads registers ${param.address}…${param.address + span - 1}`);
  });

  doc.configMenus.forEach((menu, index) => {
    const at = `configMenus[${index}](${menu.key})`;
    if (menu.parent === undefined) return;
    if (!menuKeys.has(menu.parent)) {
      add(`${at}.parent`, `unknown menu "${menu.parent}"`);
      return;
    }
    // Walk up the parents; coming back to this menu means a cycle.
    const visited = new Set([menu.key]);
    let parent: string | undefined = menu.parent;
    while (parent !== undefined) {
      if (visited.has(parent)) {
        add(`${at}.parent`, `menu parents form a cycle through "${parent}"`);
        break;
      }
      visited.add(parent);
      parent = doc.configMenus.find((candidate) => candidate.key === parent)?.parent;
    }
  });

  doc.configReadBlocks.forEach((block, index) => {
    const at = `configReadBlocks[${index}]`;
    const limit = maxReadCount(block.fc);
    if (block.count > limit)
      add(`${at}.count`, `${block.count} exceeds the Modbus limit of ${limit} per read for fc ${block.fc}`);
    if (block.start + block.count > 65536) add(`${at}.count`, `block runs past address 65535`);
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
      if (key !== undefined && !itemKeys.has(key)) add(path, `unknown item "${key}"`);
    }
  }
  return problems;
}

/** All problems of a document (shape first; meaning only once the shape is right). Empty means usable. */
export function validateProtocolDocument(input: unknown): ProtocolProblem[] {
  const parsed = protocolDocumentSchema.safeParse(input);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => ({ path: describePath(input, issue.path), message: issue.message }));
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
