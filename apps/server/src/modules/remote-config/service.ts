// Remote configuration of a set's controller through its cloud module: read the parameters of a menu, and
// write changed values after checking every one of them first, then read back what the controller took.
// Parameters at bits of a register are written as the whole word read just before, with their bits replaced.
// Every write goes to the operation log with the old and the new value.
import {
  compileConfigDecoder,
  configParamField,
  configValueProblem,
  decodeFieldValue,
  encodeFieldValue,
  fieldSpan,
  findConfigParam,
  MQTT_MAX_WRITES,
  placeBitField,
  planConfigWrites,
  ResultCode,
  type ConfigParam,
  type Language,
  type PlannedWrite,
  type PollBlock,
  type ProtocolDecoder,
  type ProtocolDocument,
  type RegisterBlock,
  unitIn,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import { verifyPassword } from '../auth/passwords.ts';
import type { CommandDispatcher, CommandOutcome } from '../devices/commands.ts';
import type { GensetRow } from '../devices/fleet.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { DeviceService } from '../devices/service.ts';
import type { DeviceTransport } from '../devices/transport.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';

export interface RemoteConfigOptions {
  db: Db;
  devices: Pick<DeviceService, 'resolve'>;
  protocols: ProtocolStore;
  commands: CommandDispatcher;
  transport: DeviceTransport;
  commandTimeoutMs: number;
}

/** Registers read across to join two parameters rather than making another request. */
const MAX_REGISTER_GAP = 16;
const MAX_READ_REGISTERS = 125;

const decoders = new WeakMap<ProtocolDocument, ProtocolDecoder>();
function configDecoder(doc: ProtocolDocument): ProtocolDecoder {
  let decode = decoders.get(doc);
  if (!decode) decoders.set(doc, (decode = compileConfigDecoder(doc)));
  return decode;
}

/** The menu and all menus below it. */
function menuSubtree(doc: ProtocolDocument, menu: string): Set<string> {
  const keys = new Set([menu]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const candidate of doc.configMenus) {
      if (candidate.parent !== undefined && keys.has(candidate.parent) && !keys.has(candidate.key)) {
        keys.add(candidate.key);
        grew = true;
      }
    }
  }
  return keys;
}

/**
 * The reads that fetch these parameters: the document's configuration read blocks that hold any of them, and
 * for a parameter none covers (older documents), blocks derived from the parameters' own registers.
 */
export function configReadBlocksFor(doc: ProtocolDocument, params: readonly ConfigParam[]): PollBlock[] {
  const spans = params.map((param) => ({ start: param.address, end: param.address + fieldSpan(param.type) }));
  const listed = doc.configReadBlocks.filter(
    (block) => block.fc === 3 && spans.some((span) => span.start < block.start + block.count && span.end > block.start),
  );
  const uncovered = spans
    .filter((span) => !listed.some((block) => block.start <= span.start && span.end <= block.start + block.count))
    .sort((a, b) => a.start - b.start);
  const derived: PollBlock[] = [];
  for (const span of uncovered) {
    const last = derived.at(-1);
    if (
      last &&
      span.start <= last.start + last.count + MAX_REGISTER_GAP &&
      span.end - last.start <= MAX_READ_REGISTERS
    ) {
      last.count = Math.max(last.count, span.end - last.start);
    } else {
      derived.push({ fc: 3, start: span.start, count: span.end - span.start });
    }
  }
  return [...listed, ...derived];
}

/** The value a parameter's registers hold after writing `value` (scale and rounding applied). */
function representable(param: ConfigParam, value: number): number | null {
  const field = configParamField(param);
  const words = encodeFieldValue(field, value);
  return decodeFieldValue(field, param.bits ? [placeBitField(0, param.bits, words[0]!)] : words);
}

/** A holding register's word as a configuration read returned it, if the read held it. */
function wordIn(blocks: readonly RegisterBlock[], address: number): number | undefined {
  const block = blocks.find(
    (candidate) =>
      candidate.fc === 3 &&
      candidate.words !== undefined &&
      candidate.start <= address &&
      address < candidate.start + candidate.words.length,
  );
  const word = block?.words?.[address - block.start];
  return word === undefined ? undefined : Number(word) & 0xffff;
}

function rangeText(param: ConfigParam, lang: Language): string {
  return `${param.min}…${param.max}${param.unit ? ` ${unitIn(lang, param.unit)}` : ''}`;
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export function createRemoteConfigService(opts: RemoteConfigOptions) {
  const { db, devices, protocols, commands, transport } = opts;

  async function configOf(set: GensetRow): Promise<ProtocolDocument> {
    const protocol = await protocols.get(set.protocol_key);
    if (!protocol || protocol.doc.configParams.length === 0) throw new AppError(ResultCode.conflict, 'errors.noConfig');
    return protocol.doc;
  }

  /** The set's module, connected: a request to an offline module would only time out. */
  async function onlineModule(set: GensetRow) {
    const modem = set.modem_id
      ? await db.selectFrom('modem').selectAll().where('id', '=', set.modem_id).executeTakeFirst()
      : undefined;
    if (!modem) throw new AppError(ResultCode.conflict, 'errors.noModule');
    if (!transport.connected(modem.modem_key) && transport.port !== undefined) {
      throw new AppError(ResultCode.deviceTimeout, 'errors.moduleOffline', {}, { state: 'error', requestId: null });
    }
    return modem;
  }

  function outcomeError(outcome: CommandOutcome, lang: Language, data: Record<string, unknown> = {}): AppError {
    if (outcome.status === 'timeout') {
      return new AppError(
        ResultCode.deviceTimeout,
        'errors.deviceTimeout',
        { seconds: Math.round(opts.commandTimeoutMs / 1000) },
        { state: 'error', requestId: outcome.requestId, ...data },
      );
    }
    return new AppError(
      ResultCode.deviceFailed,
      'errors.configFailed',
      { reason: outcome.reply?.error ?? translate(lang, 'errors.invalidBody') },
      { state: 'error', requestId: outcome.requestId, ...data },
    );
  }

  async function readParams(
    ctx: SessionContext,
    set: GensetRow,
    modem: { id: number; modem_key: string },
    doc: ProtocolDocument,
    params: readonly ConfigParam[],
  ) {
    const outcome = await commands.send({
      modemKey: modem.modem_key,
      modemId: modem.id,
      gensetId: set.id,
      userId: ctx.user.id,
      name: 'config-read',
      request: { kind: 'read', port: set.port, address: set.address, reads: configReadBlocksFor(doc, params) },
      timeoutMs: opts.commandTimeoutMs,
    });
    const data = outcome.status === 'ok' ? outcome.reply?.data : undefined;
    return {
      outcome,
      ts: data?.ts ?? null,
      values: data ? configDecoder(doc)(data.blocks) : null,
      blocks: data?.blocks ?? [],
    };
  }

  async function logWrite(ctx: SessionContext, set: GensetRow, ip: string, feedback: Record<string, unknown>) {
    await writeOperationLog(db, {
      ctx,
      companyId: set.company_id,
      ip,
      matter: 'log.configWrite',
      feedback,
      target: set.token,
    });
  }

  return {
    /** Reads the parameters of a menu (and its sub-menus), or of every menu, from the controller. */
    async read(ctx: SessionContext, input: { token: string; menu?: string | undefined }, lang: Language) {
      const { set } = await devices.resolve(ctx, input.token, 'view');
      const doc = await configOf(set);
      if (input.menu !== undefined && !doc.configMenus.some((menu) => menu.key === input.menu)) {
        throw fieldError('menu', 'validation.invalid');
      }
      const menus = input.menu === undefined ? null : menuSubtree(doc, input.menu);
      const params = doc.configParams.filter((param) => !menus || menus.has(param.menu));
      let requestId: string | null = null;
      let ts = Date.now();
      let values: Record<string, number | null> = {};
      if (params.length > 0) {
        const modem = await onlineModule(set);
        const read = await readParams(ctx, set, modem, doc, params);
        if (!read.values) throw outcomeError(read.outcome, lang);
        requestId = read.outcome.requestId;
        ts = read.ts ?? ts;
        values = read.values;
      }
      return {
        state: 'ok' as const,
        requestId,
        ts,
        menu: input.menu ?? null,
        menus: doc.configMenus.map((menu) => ({ key: menu.key, name: menu.name[lang], parent: menu.parent ?? null })),
        params: params.map((param) => {
          const value = values[param.key] ?? null;
          const option = param.options?.find((candidate) => candidate.value === value);
          return {
            key: param.key,
            name: param.name[lang],
            menu: param.menu,
            unit: param.unit,
            decimals: param.decimals,
            min: param.min,
            max: param.max,
            value,
            label: option ? option.label[lang] : null,
            options: param.options?.map((o) => ({ value: o.value, label: o.label[lang] })) ?? null,
          };
        }),
      };
    },

    /**
     * Writes the values that differ from the controller's, after checking all of them (nothing is sent when
     * any is refused), reads them back and reports per parameter whether the controller took it.
     */
    async write(
      ctx: SessionContext,
      input: { token: string; password: string; values: Record<string, number> },
      lang: Language,
      ip: string,
    ) {
      const { set } = await devices.resolve(ctx, input.token, 'control');
      if (!(await verifyPassword(ctx.user.password_hash, input.password))) {
        throw new AppError(ResultCode.invalid, 'errors.wrongPassword');
      }
      const doc = await configOf(set);

      const requested: { param: ConfigParam; value: number; expected: number | null }[] = [];
      const fields: Record<string, string> = {};
      for (const [key, value] of Object.entries(input.values)) {
        const param = findConfigParam(doc, key);
        let rule: string | null = null;
        if (!param) rule = translate(lang, 'errors.configUnknown', { key });
        else if (value < param.min || value > param.max) {
          rule = translate(lang, 'errors.configOutOfRange', { value, range: rangeText(param, lang) });
        } else if (param.options && !param.options.some((option) => option.value === value)) {
          const options = param.options.map((option) => option.label[lang]).join(', ');
          rule = translate(lang, 'errors.configNotOption', { value, options });
        }
        if (param && !rule && configValueProblem(param, value)) rule = translate(lang, 'validation.invalid');
        if (rule || !param) {
          fields[key] = translate(lang, 'errors.validation', { field: param ? param.name[lang] : key, rule: rule! });
          continue;
        }
        requested.push({ param, value, expected: representable(param, value) });
      }
      const refused = Object.values(fields);
      if (refused.length > 0) {
        throw new AppError(
          ResultCode.invalid,
          'errors.configRefused',
          { reason: refused[0]! },
          { state: 'error', requestId: null, fields },
        );
      }

      const modem = await onlineModule(set);
      const params = requested.map((entry) => entry.param);
      const before = await readParams(ctx, set, modem, doc, params);
      if (!before.values) throw outcomeError(before.outcome, lang);
      const old = before.values;
      const changed = requested.filter((entry) => (old[entry.param.key] ?? null) !== entry.expected);
      // Fields of one register go out as one word: the register as just read, with the changed bits replaced.
      const plan = planConfigWrites(changed, (address) => wordIn(before.blocks, address));
      if (!plan.ok) {
        throw new AppError(
          ResultCode.deviceFailed,
          'errors.configFailed',
          { reason: plan.reason },
          { state: 'error', requestId: before.outcome.requestId },
        );
      }

      let writeOutcome: CommandOutcome | null = null;
      for (const part of chunks<PlannedWrite>(plan.writes, MQTT_MAX_WRITES)) {
        writeOutcome = await commands.send({
          modemKey: modem.modem_key,
          modemId: modem.id,
          gensetId: set.id,
          userId: ctx.user.id,
          name: 'config-write',
          request: { kind: 'write', port: set.port, address: set.address, writes: part },
          timeoutMs: opts.commandTimeoutMs,
        });
        if (writeOutcome.status !== 'ok') break;
      }
      // Read back even after a refusal: earlier writes of the request may have been applied.
      const after =
        changed.length > 0 && writeOutcome?.status !== 'timeout'
          ? await readParams(ctx, set, modem, doc, params)
          : null;
      const readBack = changed.length === 0 ? old : after?.values;

      const results = requested.map((entry) => {
        const key = entry.param.key;
        const wasChanged = changed.includes(entry);
        const now = readBack ? (readBack[key] ?? null) : null;
        return {
          key,
          name: entry.param.name[lang],
          old: old[key] ?? null,
          value: entry.expected ?? entry.value,
          readBack: now,
          changed: wasChanged,
          accepted: readBack ? now === entry.expected : null,
        };
      });
      for (const result of results.filter((r) => r.changed)) {
        await logWrite(ctx, set, ip, {
          param: result.key,
          name: findConfigParam(doc, result.key)!.name,
          old: result.old,
          new: result.value,
          readBack: result.readBack,
          outcome:
            result.accepted === true ? 'ok' : result.accepted === false ? 'notTaken' : (writeOutcome?.status ?? 'ok'),
          error: writeOutcome?.reply?.error,
        });
      }

      const requestId = writeOutcome?.requestId ?? before.outcome.requestId;
      if (writeOutcome?.status === 'timeout') throw outcomeError(writeOutcome, lang, { results });
      const notTaken = results.filter((result) => result.accepted !== true);
      if (notTaken.length > 0) {
        if (writeOutcome && writeOutcome.status !== 'ok') throw outcomeError(writeOutcome, lang, { results });
        throw new AppError(
          ResultCode.deviceFailed,
          'errors.configNotTaken',
          { names: notTaken.map((result) => result.name).join(', ') },
          { state: 'error', requestId, results },
        );
      }
      return { state: 'ok' as const, requestId, results };
    },
  };
}
export type RemoteConfigService = ReturnType<typeof createRemoteConfigService>;
