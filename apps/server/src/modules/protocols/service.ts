// Protocol management: register maps as versioned documents. Editing a published version makes a new draft;
// publishing moves every set of that protocol to it and sends their modules the new poll plan at once.
// A document is checked as a whole before it is stored, and a refusal names the exact place of each problem.
import {
  fieldSpan,
  problemOfIssue,
  PROTOCOL_KEY_MAX,
  protocolDocumentSchema,
  protocolDropdownInput,
  protocolProblem,
  ResultCode,
  validateProtocolDocument,
  type ConfigParam,
  type Language,
  type ProtocolDetail,
  type ProtocolDocument,
  type ProtocolProblem,
  type ProtocolSaveRequest,
  type ProtocolStatus,
  type ProtocolSummary,
} from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { translate } from '../../i18n/messages.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SessionContext } from '../auth/service.ts';
import type { Planner } from '../devices/plans.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { ProtocolListFilter, ProtocolRepository, ProtocolRow } from './repository.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';

export interface ProtocolServiceOptions {
  db: Db;
  repo: ProtocolRepository;
  store: ProtocolStore;
  planner: Planner;
  log: FastifyBaseLogger;
}

/** Who acts, for the operation log. */
export interface Actor {
  ctx: SessionContext;
  ip: string;
}

export interface VersionRef {
  id: number;
  key: string;
  version: number;
  status: ProtocolStatus;
  created: boolean;
}

const NAME_COLUMN_MAX = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The top-level part a problem belongs to, e.g. "items" for "items[3](gen_kw).address". */
function partOf(path: string): string {
  return path.split(/[.[(]/)[0] || 'document';
}

/**
 * A 400 naming every problem with its place, each told in the caller's language (its rule and params kept,
 * for clients that word problems themselves); the message names the first.
 */
export function refuseDocument(problems: ProtocolProblem[]): never {
  throw new AppError(ResultCode.invalid, 'errors.protocolInvalid', {}, null, (lang) => {
    const told = problems.map((problem) => ({ ...problem, message: translate(lang, problem.rule, problem.params) }));
    const first = told[0]!;
    const fields: Record<string, string> = {};
    for (const problem of told) fields[partOf(problem.path)] ??= `${problem.path}: ${problem.message}`;
    return {
      params: { path: first.path, message: first.message, count: told.length },
      data: { problems: told, fields },
    };
  });
}

/** Validates a whole document (shape, meaning and what the database can hold) and returns it with defaults. */
export function checkedDocument(input: unknown): ProtocolDocument {
  const problems = validateProtocolDocument(input);
  if (isRecord(input) && typeof input.key === 'string' && input.key.length > PROTOCOL_KEY_MAX) {
    problems.unshift(protocolProblem('key', 'protocolDoc.keyTooLong', { maximum: PROTOCOL_KEY_MAX }));
  }
  if (problems.length > 0) refuseDocument(problems);
  return protocolDocumentSchema.parse(input);
}

function stored(row: ProtocolRow): ProtocolDocument {
  return protocolDocumentSchema.parse(JSON.parse(row.document));
}

function nameColumn(doc: ProtocolDocument): string {
  return doc.name['en-US'].slice(0, NAME_COLUMN_MAX);
}

function menuPath(doc: ProtocolDocument, menu: string): string[] {
  const path: string[] = [];
  let at: string | undefined = menu;
  // Parents were checked for cycles when the document was stored; the bound only guards old rows.
  while (at !== undefined && path.length <= doc.configMenus.length) {
    path.unshift(at);
    const key: string = at;
    at = doc.configMenus.find((candidate) => candidate.key === key)?.parent;
  }
  return path;
}

function writeFcOf(param: ConfigParam): 6 | 16 {
  return param.writeFc ?? (fieldSpan(param.type) === 2 ? 16 : 6);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : `${text}.${String(segment)}`),
    '',
  );
}

/** Applies a dropdown part: each listed parameter gets its own options, the others none. */
function applyDropdowns(doc: Record<string, unknown>, input: unknown): ProtocolProblem[] {
  const parsed = z.array(protocolDropdownInput).safeParse(input);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => problemOfIssue(issue, input, `dropdowns${formatPath(issue.path)}`));
  }
  const dropdowns = parsed.data;
  const params = Array.isArray(doc.configParams) ? (doc.configParams as Record<string, unknown>[]) : [];
  const problems: ProtocolProblem[] = [];
  dropdowns.forEach((dropdown, index) => {
    if (!params.some((param) => isRecord(param) && param.key === dropdown.param)) {
      problems.push(
        protocolProblem(`dropdowns[${index}](${dropdown.param}).param`, 'protocolDoc.unknownParam', {
          param: dropdown.param,
        }),
      );
    }
  });
  doc.configParams = params.map((param) => {
    if (!isRecord(param)) return param;
    const { options: _previous, optionList: _list, ...rest } = param;
    const dropdown = dropdowns.find((candidate) => candidate.param === param.key);
    return dropdown ? { ...rest, options: dropdown.options } : rest;
  });
  return problems;
}

export function createProtocolService(opts: ProtocolServiceOptions) {
  const { db, repo, store, planner, log } = opts;

  async function row(id: number): Promise<ProtocolRow> {
    const found = await repo.byId(id);
    if (!found) throw notFound();
    return found;
  }

  async function operationLog(actor: Actor, matter: string, feedback: Record<string, unknown>, key: string) {
    await writeOperationLog(db, {
      ctx: actor.ctx,
      companyId: actor.ctx.user.company_id,
      ip: actor.ip,
      matter,
      feedback,
      target: `protocol:${key}`,
    });
  }

  async function insertVersion(doc: ProtocolDocument): Promise<VersionRef> {
    const id = await repo.insert({
      key: doc.key,
      version: doc.version,
      name: nameColumn(doc),
      document: JSON.stringify(doc),
      status: 'draft',
    });
    return { id, key: doc.key, version: doc.version, status: 'draft', created: true };
  }

  /** Logs a draft written (added, copied, imported or edited) and answers it. */
  async function draftSaved(actor: Actor, ref: VersionRef): Promise<VersionRef> {
    await operationLog(actor, 'log.protocolDraftSaved', { key: ref.key, version: ref.version }, ref.key);
    return ref;
  }

  async function requireNewKey(key: string) {
    if (await repo.keyExists(key)) throw new AppError(ResultCode.conflict, 'errors.protocolKeyTaken', { key });
  }

  return {
    async list(filter: ProtocolListFilter, lang: Language) {
      const { rows, total } = await repo.list(filter);
      const keys = [...new Set(rows.map((r) => r.protocol_key))];
      const [current, sets] = await Promise.all([repo.currentIds(keys), repo.setCounts(keys)]);
      const list: ProtocolSummary[] = rows.map((r) => {
        const doc = stored(r);
        return {
          id: r.id,
          key: r.protocol_key,
          version: r.version,
          name: doc.name[lang],
          layout: doc.layout,
          status: r.status as ProtocolStatus,
          current: current.has(r.id),
          sets: sets.get(r.protocol_key) ?? 0,
          items: doc.items.length,
          createdAt: r.created_at,
          publishedAt: r.published_at,
        };
      });
      return { list, total, page: filter.page, size: filter.size };
    },

    async info(id: number): Promise<ProtocolDetail> {
      const r = await row(id);
      const doc = stored(r);
      const [versions, current, sets] = await Promise.all([
        repo.versionsOf(r.protocol_key),
        repo.current(r.protocol_key),
        repo.setCounts([r.protocol_key]),
      ]);
      const withOptions = doc.configParams.filter((param) => param.options && param.options.length > 0);
      return {
        id: r.id,
        key: r.protocol_key,
        version: r.version,
        status: r.status as ProtocolStatus,
        current: current?.id === r.id,
        sets: sets.get(r.protocol_key) ?? 0,
        createdAt: r.created_at,
        publishedAt: r.published_at,
        versions: versions.map((v) => ({
          id: v.id,
          version: v.version,
          status: v.status as ProtocolStatus,
          createdAt: v.created_at,
          publishedAt: v.published_at,
        })),
        name: doc.name,
        layout: doc.layout,
        items: doc.items,
        alarms: doc.alarms,
        commands: doc.commands,
        moduleItems: doc.moduleItems,
        moduleStatus: doc.items
          .filter((item) => item.group === 'status')
          .map((item) => ({
            key: item.key,
            name: item.name,
            fc: item.fc,
            address: item.address,
            bit: item.bit ?? null,
            type: item.type,
            enum: item.enum ?? null,
            alarms: doc.alarms.filter((alarm) => alarm.item === item.key).map((alarm) => alarm.code),
          })),
        configMenus: doc.configMenus,
        configParams: doc.configParams,
        configReadBlocks: doc.configReadBlocks,
        optionLists: doc.optionLists,
        dropdowns: withOptions.map((param) => ({
          param: param.key,
          name: param.name,
          menu: param.menu,
          options: param.options!,
        })),
        coordinates: withOptions.map((param) => ({
          param: param.key,
          menuPath: menuPath(doc, param.menu),
          fc: 3 as const,
          address: param.address,
          registers: fieldSpan(param.type),
          writeFc: writeFcOf(param),
          bits: param.bits ?? null,
        })),
        statusRules: doc.statusRules ?? null,
      };
    },

    /** The stored document, exactly as an import takes it back. */
    async exportDocument(id: number): Promise<{ fileName: string; document: ProtocolDocument }> {
      const r = await row(id);
      return { fileName: `${r.protocol_key}-v${r.version}.json`, document: stored(r) };
    },

    /** A new protocol from a whole document; it starts as draft version 1. */
    async create(input: unknown, actor: Actor): Promise<VersionRef> {
      const doc = checkedDocument(input);
      await requireNewKey(doc.key);
      return draftSaved(actor, await insertVersion({ ...doc, version: 1 }));
    },

    /**
     * An exported document back in: a new protocol keeps the document's version; a known key gets the next
     * version. Either way it arrives as a draft, to be published deliberately.
     */
    async importDocument(input: unknown, actor: Actor): Promise<VersionRef> {
      const doc = checkedDocument(input);
      const latest = await repo.maxVersion(doc.key);
      return draftSaved(actor, await insertVersion(latest === 0 ? doc : { ...doc, version: latest + 1 }));
    },

    async copy(
      input: { id: number; key: string; name?: ProtocolDocument['name'] | undefined },
      actor: Actor,
    ): Promise<VersionRef> {
      const source = stored(await row(input.id));
      await requireNewKey(input.key);
      const doc = checkedDocument({ ...source, key: input.key, version: 1, name: input.name ?? source.name });
      return draftSaved(actor, await insertVersion(doc));
    },

    /** Replaces the given parts; a published version gets a new draft version, a draft is edited in place. */
    async save(input: ProtocolSaveRequest, actor: Actor): Promise<VersionRef> {
      const r = await row(input.id);
      const base = stored(r);
      const { id: _id, dropdowns, ...parts } = input;
      if (Object.keys(parts).length === 0 && dropdowns === undefined) {
        throw new AppError(ResultCode.invalid, 'errors.protocolNoChange');
      }
      const merged: Record<string, unknown> = { ...base, ...parts, key: base.key, version: r.version };
      const problems = dropdowns !== undefined ? applyDropdowns(merged, dropdowns) : [];
      if (problems.length > 0) refuseDocument([...problems, ...validateProtocolDocument(merged)]);
      const doc = checkedDocument(merged);
      if (r.status === 'draft') {
        if (!(await repo.updateDraft(r.id, nameColumn(doc), JSON.stringify(doc)))) {
          throw new AppError(ResultCode.conflict, 'errors.protocolPublished');
        }
        return draftSaved(actor, { id: r.id, key: doc.key, version: r.version, status: 'draft', created: false });
      }
      return draftSaved(actor, await insertVersion({ ...doc, version: (await repo.maxVersion(doc.key)) + 1 }));
    },

    /** Makes a draft the version its sets run on, and sends each of their modules the new poll plan. */
    async publish(id: number, actor: Actor) {
      const r = await row(id);
      if (r.status !== 'draft') throw new AppError(ResultCode.conflict, 'errors.protocolPublished');
      const current = await repo.current(r.protocol_key);
      if (current && current.version > r.version) {
        throw new AppError(ResultCode.conflict, 'errors.protocolOutdated', { version: current.version });
      }
      // Stored documents were checked when saved; checking again costs little and guards against old rows.
      checkedDocument(JSON.parse(r.document));
      if (!(await repo.markPublished(r.id))) throw new AppError(ResultCode.conflict, 'errors.protocolPublished');
      store.invalidate(r.protocol_key);
      const modems = await repo.modemKeysUsing(r.protocol_key);
      let sent = 0;
      for (const modemKey of modems) {
        try {
          await planner.publishPlan(modemKey);
          sent += 1;
        } catch (err) {
          log.warn({ err, modem: modemKey }, 'new poll plan not sent');
        }
      }
      const sets = (await repo.setCounts([r.protocol_key])).get(r.protocol_key) ?? 0;
      await operationLog(
        actor,
        'log.protocolPublished',
        { key: r.protocol_key, version: r.version, sets, modules: sent },
        r.protocol_key,
      );
      return { id: r.id, key: r.protocol_key, version: r.version, status: 'published' as const, sets, modules: sent };
    },

    /** Deletes a version, unless it is the published version sets run on. */
    async remove(id: number, actor: Actor) {
      const r = await row(id);
      if (r.status === 'published') {
        const current = await repo.current(r.protocol_key);
        const sets = (await repo.setCounts([r.protocol_key])).get(r.protocol_key) ?? 0;
        if (current?.id === r.id && sets > 0) {
          throw new AppError(ResultCode.conflict, 'errors.protocolInUse', { sets });
        }
      }
      await repo.remove(r.id);
      if (r.status === 'published') store.invalidate(r.protocol_key);
      await operationLog(
        actor,
        'log.protocolDeleted',
        { key: r.protocol_key, version: r.version, status: r.status },
        r.protocol_key,
      );
    },
  };
}
export type ProtocolService = ReturnType<typeof createProtocolService>;
