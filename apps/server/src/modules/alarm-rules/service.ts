// A company's threshold rules (its administrators'): listed with the items and controller models they may watch
// and the alarms each has open, saved and deleted with an entry in the operation log. Ingestion holds them against
// every snapshot (devices/ingest/rules.ts); a change made here is applied by this instance's next batch and by the
// others' within RULES_FRESH_MS.
import {
  ALARM_RULES_MAX,
  ResultCode,
  type AlarmLevelName,
  type AlarmRuleItem,
  type AlarmRuleListResponse,
  type AlarmRuleOp,
  type AlarmRuleSaveRequest,
  type AlarmRuleScope,
  type Language,
} from '@genset/protocol';
import type { z } from 'zod';
import type { alarmRuleSaveRequest } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import { ruleCode, type RuleBook } from '../devices/ingest/rules.ts';

type SaveRequest = z.output<typeof alarmRuleSaveRequest>;

/** The name of a protocol document's text in a language (English when it has none in it). */
const textIn = (text: Record<string, string | undefined>, lang: Language) => text[lang] ?? text['en-US'] ?? '';

export function createAlarmRuleService(deps: { db: Db; protocols: ProtocolStore; rules: RuleBook }) {
  const { db, protocols } = deps;

  /** The controller models of the company's sets (stations' devices included), compiled. */
  async function modelsOf(companyId: number) {
    const rows = await db
      .selectFrom('genset')
      .select('protocol_key')
      .distinct()
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .execute();
    const compiled = await Promise.all(rows.map((r) => protocols.get(r.protocol_key)));
    return compiled.filter((p) => p !== undefined).sort((a, b) => a.key.localeCompare(b.key));
  }

  /** The numeric items of the models (not bits, not enumerations), each once, in the reader's language. */
  function itemsOf(models: Awaited<ReturnType<typeof modelsOf>>, lang: Language) {
    const items = new Map<string, { key: string; name: string; unit: string }>();
    for (const m of models)
      for (const item of m.doc.items)
        if (item.type !== 'bit' && !item.enum && !items.has(item.key))
          items.set(item.key, { key: item.key, name: textIn(item.name, lang), unit: item.unit });
    return [...items.values()].sort((a, b) => a.name.localeCompare(b.name, lang));
  }

  async function own(companyId: number, id: number) {
    const row = await db
      .selectFrom('alarm_rule')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    if (!row) throw new AppError(ResultCode.notFound, 'alarmRule.notFound');
    return row;
  }

  /** The targets as stored: the chosen models' keys, or the chosen sets' ids (each the company's). */
  async function targetsOf(companyId: number, req: SaveRequest, models: Awaited<ReturnType<typeof modelsOf>>) {
    if (req.scope === 'protocols') {
      const known = new Set(models.map((m) => m.key));
      const unknown = req.protocols.find((k) => !known.has(k));
      if (unknown !== undefined) throw fieldError('protocols', 'alarmRule.unknownModel', { model: unknown });
      return [...new Set(req.protocols)];
    }
    if (req.scope === 'sets') {
      const tokens = [...new Set(req.sets)];
      const rows = await db
        .selectFrom('genset')
        .select(['id', 'token'])
        .where('company_id', '=', companyId)
        .where('deleted_at', 'is', null)
        .where('token', 'in', tokens)
        .execute();
      if (rows.length !== tokens.length) throw fieldError('sets', 'alarmRule.unknownSet');
      return rows.map((r) => r.id).sort((a, b) => a - b);
    }
    return [];
  }

  return {
    async list(companyId: number, lang: Language): Promise<AlarmRuleListResponse> {
      const rows = await db
        .selectFrom('alarm_rule')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('id')
        .execute();
      const models = await modelsOf(companyId);
      const setIds = rows.flatMap((r) => (r.scope === 'sets' ? (JSON.parse(r.targets) as number[]) : []));
      const setRows = setIds.length
        ? await db
            .selectFrom('genset')
            .select(['id', 'token', 'name'])
            .where('id', 'in', [...new Set(setIds)])
            .execute()
        : [];
      const sets = new Map(setRows.map((s) => [s.id, { token: s.token, name: s.name }]));
      const codes = rows.map((r) => ruleCode(r.id));
      const open = codes.length
        ? await db
            .selectFrom('alarm')
            .innerJoin('genset', 'genset.id', 'alarm.genset_id')
            .select(['alarm.code', (eb) => eb.fn.countAll<number>().as('n')])
            .where('alarm.code', 'in', codes)
            .where('alarm.end_ts', 'is', null)
            .where('genset.company_id', '=', companyId)
            .groupBy('alarm.code')
            .execute()
        : [];
      const active = new Map(open.map((o) => [o.code, Number(o.n)]));
      const list: AlarmRuleItem[] = rows.map((r) => {
        const targets = JSON.parse(r.targets) as (string | number)[];
        return {
          id: r.id,
          name: r.name,
          item: r.item,
          op: r.op as AlarmRuleOp,
          threshold: Number(r.threshold),
          hysteresis: Number(r.hysteresis),
          delaySeconds: Number(r.delay_s),
          level: r.level as AlarmLevelName,
          scope: r.scope as AlarmRuleScope,
          protocols: r.scope === 'protocols' ? targets.map(String) : [],
          sets: r.scope === 'sets' ? targets.flatMap((id) => sets.get(Number(id)) ?? []) : [],
          enabled: r.enabled === 1,
          active: active.get(ruleCode(r.id)) ?? 0,
          updatedAt: Number(r.updated_at),
        };
      });
      return {
        list,
        items: itemsOf(models, lang),
        protocols: models.map((m) => ({ key: m.key, name: textIn(m.doc.name, lang) })),
      };
    },

    async save(ctx: SessionContext, companyId: number, ip: string, body: AlarmRuleSaveRequest) {
      const req = body as SaveRequest;
      const models = await modelsOf(companyId);
      const targets = await targetsOf(companyId, req, models);
      const watched = req.scope === 'protocols' ? models.filter((m) => req.protocols.includes(m.key)) : models;
      if (!itemsOf(watched, 'en-US').some((i) => i.key === req.item))
        throw fieldError('item', 'alarmRule.unknownItem', { item: req.item });
      const now = Date.now();
      const values = {
        name: req.name,
        item: req.item,
        op: req.op,
        threshold: req.threshold,
        hysteresis: req.hysteresis,
        delay_s: req.delaySeconds,
        level: req.level,
        scope: req.scope,
        targets: JSON.stringify(targets),
        enabled: req.enabled ? 1 : 0,
        updated_at: now,
      };
      let id: number;
      if (req.id) {
        await own(companyId, req.id);
        await db.updateTable('alarm_rule').set(values).where('id', '=', req.id).execute();
        id = req.id;
      } else {
        const count = await db
          .selectFrom('alarm_rule')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= ALARM_RULES_MAX)
          throw new AppError(ResultCode.conflict, 'alarmRule.tooMany', { max: ALARM_RULES_MAX });
        const row = await db
          .insertInto('alarm_rule')
          .values({ ...values, company_id: companyId, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = row.id;
      }
      deps.rules.changed();
      await writeOperationLog(db, {
        ctx,
        companyId,
        ip,
        matter: 'log.alarmRuleSaved',
        feedback: { name: req.name },
        target: `alarm_rule:${id}`,
      });
      return { id };
    },

    async remove(ctx: SessionContext, companyId: number, ip: string, id: number) {
      const row = await own(companyId, id);
      await db.deleteFrom('alarm_rule').where('id', '=', id).execute();
      deps.rules.changed();
      await writeOperationLog(db, {
        ctx,
        companyId,
        ip,
        matter: 'log.alarmRuleDeleted',
        feedback: { name: row.name },
        target: `alarm_rule:${id}`,
      });
      return { id };
    },
  };
}
export type AlarmRuleService = ReturnType<typeof createAlarmRuleService>;
