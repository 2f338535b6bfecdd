// Maintenance plans of the sets. Rights: reading a plan and its history needs view rights on the set; editing
// items, templates and maintenance links needs manage rights (they change what the set's people are reminded
// of); marking a task done needs control rights, so a service technician subscribed with control can record
// the work without managing the set. Every write is in the operation log. A refused call changes nothing: all
// checks run before the first write, and the writes of one call share a transaction.
import {
  Permission,
  ResultCode,
  hasAnyPermission,
  MAINT_MAX_ITEMS,
  type MaintFleetTask,
  type MaintItem,
  type MaintState,
  type MaintTask,
  type MaintTemplate,
  type MaintTemplateItem,
} from '@genset/protocol';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { atLeast, type Fleet, type GensetRow, type Rights } from '../devices/fleet.ts';
import { visibleSets } from '../history/visibility.ts';
import { parseDetails } from '../gensets/fields.ts';
import { dateIn, nextDue, runHoursIn, stateOf } from './schedule.ts';

const DAY = 86_400_000;
const HISTORY_PUBLIC = 50;

export interface MaintCaller {
  ctx: SessionContext;
  ip: string;
}

export interface MaintenanceServiceOptions {
  db: Db;
  fleet: Fleet;
  now?: () => number;
}

interface ItemInput {
  name: string;
  cycleDays?: number | null | undefined;
  cycleHours?: number | null | undefined;
  remindDays: number;
  remindHours: number;
  replacedModel: string;
  remark: string;
}

const SEVERITY: Record<MaintState, number> = { overdue: 0, due: 1, ok: 2 };
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Cycle in days and/or hours, and a reminder no longer than its cycle; the first failure as a field error. */
function checkCycle(input: ItemInput) {
  const days = input.cycleDays ?? 0;
  const hours = input.cycleHours ?? 0;
  if (days <= 0 && hours <= 0) throw fieldError('cycleDays', 'maintenance.cycleNeeded');
  if (days > 0 && input.remindDays > days) throw fieldError('remindDays', 'maintenance.remindTooLong');
  if (hours > 0 && input.remindHours > hours) throw fieldError('remindHours', 'maintenance.remindTooLong');
}

function num(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

export function createMaintenanceService(opts: MaintenanceServiceOptions) {
  const { db, fleet } = opts;
  const now = opts.now ?? Date.now;

  /** The set if the caller may see it (404) and holds the rights (403 with the words of what is needed). */
  async function setOf(ctx: SessionContext, token: string, needed: Rights) {
    const set = await fleet.byToken(token);
    if (!set) throw notFound();
    const rights = await fleet.rightsOn(ctx.user, ctx.grant, set);
    if (!rights) throw notFound();
    if (!atLeast(rights, needed))
      throw new AppError(
        ResultCode.forbidden,
        needed === 'manage' ? 'maintenance.needsManage' : 'maintenance.needsControl',
      );
    return { set, rights };
  }

  async function runHoursOf(gensetId: number): Promise<number | null> {
    const row = await db.selectFrom('set_latest').select('values').where('genset_id', '=', gensetId).executeTakeFirst();
    return runHoursIn(row?.values);
  }

  async function log(q: Db, caller: MaintCaller, set: GensetRow, matter: string, feedback: Record<string, unknown>) {
    await writeOperationLog(q, {
      ctx: caller.ctx,
      companyId: set.company_id,
      ip: caller.ip,
      matter,
      feedback,
      target: set.token,
    });
  }

  async function itemsOf(set: GensetRow, today: string, runHours: number | null): Promise<MaintItem[]> {
    const rows = await db
      .selectFrom('maintenance_item as i')
      .leftJoin('maintenance_task as t', (j) => j.onRef('t.item_id', '=', 'i.id').on('t.status', '=', 'pending'))
      .selectAll('i')
      .select(['t.id as task_id', 't.due_date', 't.due_hours'])
      .where('i.genset_id', '=', set.id)
      .orderBy('i.name')
      .orderBy('i.id')
      .execute();
    return rows.map((r) => {
      const dueHours = num(r.due_hours);
      const task = {
        due_date: r.due_date ?? null,
        due_hours: dueHours,
        remind_days: r.remind_days,
        remind_hours: Number(r.remind_hours),
      };
      return {
        id: r.id,
        name: r.name,
        cycleDays: r.cycle_days,
        cycleHours: num(r.cycle_hours),
        remindDays: r.remind_days,
        remindHours: Number(r.remind_hours),
        latestDate: r.latest_date,
        latestHours: num(r.latest_hours),
        plannedDate: r.planned_date,
        replacedModel: r.replaced_model,
        remark: r.remark,
        enabled: Number(r.enabled) === 1,
        taskId: r.task_id ?? null,
        dueDate: task.due_date,
        dueHours,
        state: r.task_id ? stateOf(task, today, runHours) : 'ok',
      };
    });
  }

  function taskOf(r: {
    id: number;
    item_id: number;
    name: string;
    status: string;
    due_date: string | null;
    due_hours: unknown;
    actual_date: string | null;
    run_hours: unknown;
    replaced_model: string;
    remark: string;
    done_by: string;
    done_at: unknown;
  }): MaintTask {
    return {
      id: r.id,
      itemId: r.item_id,
      name: r.name,
      status: r.status as MaintTask['status'],
      dueDate: r.due_date,
      dueHours: num(r.due_hours),
      actualDate: r.actual_date,
      runHours: num(r.run_hours),
      replacedModel: r.replaced_model,
      remark: r.remark,
      doneBy: r.done_by,
      doneAt: num(r.done_at),
    };
  }

  async function doneTasks(gensetId: number, page: number, size: number) {
    const base = db.selectFrom('maintenance_task').where('genset_id', '=', gensetId).where('status', '=', 'done');
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy('actual_date', 'desc')
      .orderBy('done_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { list: rows.map(taskOf), total: Number(count.n) };
  }

  async function insertPending(
    q: Transaction<Database> | Db,
    item: { id: number; genset_id: number; name: string } & Parameters<typeof nextDue>[0],
    t: number,
  ) {
    const due = nextDue(item);
    const row = await q
      .insertInto('maintenance_task')
      .values({
        item_id: item.id,
        genset_id: item.genset_id,
        name: item.name,
        status: 'pending',
        due_date: due.dueDate,
        due_hours: due.dueHours,
        reminded_at: null,
        overdue_at: null,
        actual_date: null,
        run_hours: null,
        replaced_model: '',
        remark: '',
        done_by_user_id: null,
        done_by: '',
        created_at: t,
        done_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, ...due };
  }

  async function itemRow(set: GensetRow, id: number) {
    const row = await db
      .selectFrom('maintenance_item')
      .selectAll()
      .where('id', '=', id)
      .where('genset_id', '=', set.id)
      .executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  /** Templates belong to the caller's company and are edited by those who manage its sets. */
  function templateRights(ctx: SessionContext) {
    if (!hasAnyPermission(ctx.grant.permissions, [Permission.gensetManage]))
      throw new AppError(ResultCode.forbidden, 'maintenance.needsManage');
  }

  async function companySetsOfModel(companyId: number, model: string) {
    const rows = await db
      .selectFrom('genset')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.filter((r) => sameName(parseDetails(r.details).model ?? '', model));
  }

  function templateItems(text: string): MaintTemplate['items'] {
    try {
      const parsed = JSON.parse(text) as MaintTemplate['items'];
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }

  async function templateOf(ctx: SessionContext, id: number) {
    const row = await db
      .selectFrom('maintenance_template')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', ctx.user.company_id)
      .executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  async function templateLog(caller: MaintCaller, matter: string, feedback: Record<string, unknown>, id: number) {
    await writeOperationLog(db, {
      ctx: caller.ctx,
      companyId: caller.ctx.user.company_id,
      ip: caller.ip,
      matter,
      feedback,
      target: `maintenance-template:${id}`,
    });
  }

  /** The items of a set as the plan shows them, the set's calendar today and its run hours. */
  async function planOf(set: GensetRow) {
    const today = dateIn(set.time_zone, now());
    const runHours = await runHoursOf(set.id);
    return { today, runHours, items: await itemsOf(set, today, runHours) };
  }

  return {
    async plan(caller: MaintCaller, token: string) {
      const { set, rights } = await setOf(caller.ctx, token, 'view');
      const plan = await planOf(set);
      const links = atLeast(rights, 'manage')
        ? await db
            .selectFrom('maintenance_link')
            .select(['id', 'created_at', 'expires_at'])
            .where('genset_id', '=', set.id)
            .where('revoked_at', 'is', null)
            .where('expires_at', '>', now())
            .orderBy('id', 'desc')
            .execute()
        : [];
      return {
        token: set.token,
        name: set.name,
        timeZone: set.time_zone,
        ...plan,
        canEdit: atLeast(rights, 'manage'),
        canMarkDone: atLeast(rights, 'control'),
        links: links.map((l) => ({ id: l.id, createdAt: Number(l.created_at), expiresAt: Number(l.expires_at) })),
      };
    },

    async saveItem(
      caller: MaintCaller,
      input: ItemInput & {
        token: string;
        id?: number | undefined;
        latestDate?: string | null | undefined;
        latestHours?: number | null | undefined;
        plannedDate?: string | null | undefined;
        enabled: boolean;
      },
    ) {
      const { set } = await setOf(caller.ctx, input.token, 'manage');
      checkCycle(input);
      const t = now();
      const today = dateIn(set.time_zone, t);
      if (input.latestDate && input.latestDate > today) throw fieldError('latestDate', 'maintenance.futureDate');
      const existing = input.id !== undefined ? await itemRow(set, input.id) : undefined;
      const others = await db
        .selectFrom('maintenance_item')
        .select(['id', 'name'])
        .where('genset_id', '=', set.id)
        .execute();
      if (others.some((o) => o.id !== existing?.id && sameName(o.name, input.name)))
        throw fieldError('name', 'maintenance.nameTaken');
      if (!existing && others.length >= MAINT_MAX_ITEMS)
        throw new AppError(ResultCode.conflict, 'maintenance.tooManyItems', { max: MAINT_MAX_ITEMS });
      const values = {
        name: input.name,
        cycle_days: input.cycleDays || null,
        cycle_hours: input.cycleHours || null,
        remind_days: input.remindDays,
        remind_hours: input.remindHours,
        latest_date: input.latestDate ?? existing?.latest_date ?? today,
        latest_hours:
          input.latestHours !== undefined && input.latestHours !== null
            ? input.latestHours
            : (num(existing?.latest_hours) ?? (await runHoursOf(set.id))),
        planned_date: input.plannedDate ?? null,
        replaced_model: input.replacedModel,
        remark: input.remark,
        enabled: input.enabled ? 1 : 0,
        updated_at: t,
      };
      const id = await db.transaction().execute(async (trx) => {
        if (existing) {
          await trx.updateTable('maintenance_item').set(values).where('id', '=', existing.id).execute();
          const due = nextDue(values);
          const pending = await trx
            .selectFrom('maintenance_task')
            .select(['id', 'due_date', 'due_hours'])
            .where('item_id', '=', existing.id)
            .where('status', '=', 'pending')
            .executeTakeFirst();
          if (!pending) await insertPending(trx, { ...values, id: existing.id, genset_id: set.id }, t);
          else {
            const moved = pending.due_date !== due.dueDate || num(pending.due_hours) !== due.dueHours;
            await trx
              .updateTable('maintenance_task')
              .set({
                name: values.name,
                due_date: due.dueDate,
                due_hours: due.dueHours,
                // a new due date or hours is reminded of again
                ...(moved ? { reminded_at: null, overdue_at: null } : {}),
              })
              .where('id', '=', pending.id)
              .execute();
          }
          await log(trx, caller, set, 'log.maintItemChanged', { name: set.name, item: values.name });
          return existing.id;
        }
        const row = await trx
          .insertInto('maintenance_item')
          .values({ ...values, genset_id: set.id, created_at: t })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertPending(trx, { ...values, id: row.id, genset_id: set.id }, t);
        await log(trx, caller, set, 'log.maintItemAdded', { name: set.name, item: values.name });
        return row.id;
      });
      return { id };
    },

    async deleteItem(caller: MaintCaller, input: { token: string; id: number }) {
      const { set } = await setOf(caller.ctx, input.token, 'manage');
      const item = await itemRow(set, input.id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('maintenance_task').where('item_id', '=', item.id).execute();
        await trx.deleteFrom('maintenance_item').where('id', '=', item.id).execute();
        await log(trx, caller, set, 'log.maintItemDeleted', { name: set.name, item: item.name });
      });
      return { id: item.id };
    },

    async toggleItem(caller: MaintCaller, input: { token: string; id: number; enabled: boolean }) {
      const { set } = await setOf(caller.ctx, input.token, 'manage');
      const item = await itemRow(set, input.id);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('maintenance_item')
          .set({ enabled: input.enabled ? 1 : 0, updated_at: now() })
          .where('id', '=', item.id)
          .execute();
        await log(trx, caller, set, input.enabled ? 'log.maintItemEnabled' : 'log.maintItemDisabled', {
          name: set.name,
          item: item.name,
        });
      });
      return { id: item.id };
    },

    /** Records the work on a pending task and makes the item's next task, due from what was recorded. */
    async done(
      caller: MaintCaller,
      input: {
        token: string;
        id: number;
        actualDate: string;
        runHours?: number | null | undefined;
        replacedModel: string;
        remark: string;
      },
    ) {
      const { set } = await setOf(caller.ctx, input.token, 'control');
      const task = await db
        .selectFrom('maintenance_task')
        .selectAll()
        .where('id', '=', input.id)
        .where('genset_id', '=', set.id)
        .executeTakeFirst();
      if (!task) throw notFound();
      if (task.status !== 'pending') throw new AppError(ResultCode.conflict, 'maintenance.alreadyDone');
      const item = await itemRow(set, task.item_id);
      const t = now();
      if (input.actualDate > dateIn(set.time_zone, t)) throw fieldError('actualDate', 'maintenance.futureDate');
      const runHours = input.runHours ?? (await runHoursOf(set.id));
      if (item.cycle_hours && runHours === null) throw fieldError('runHours', 'validation.required');
      const user = caller.ctx.user;
      const by = user.nickname || user.account || '';
      const next = await db.transaction().execute(async (trx) => {
        const settled = await trx
          .updateTable('maintenance_task')
          .set({
            status: 'done',
            actual_date: input.actualDate,
            run_hours: runHours,
            replaced_model: input.replacedModel,
            remark: input.remark,
            done_by_user_id: user.id,
            done_by: by.slice(0, 100),
            done_at: t,
          })
          .where('id', '=', task.id)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(settled.numUpdatedRows) !== 1) throw new AppError(ResultCode.conflict, 'maintenance.alreadyDone');
        const basis = {
          latest_date: input.actualDate,
          latest_hours: runHours ?? num(item.latest_hours),
          planned_date: null,
          replaced_model: input.replacedModel || item.replaced_model,
          updated_at: t,
        };
        await trx.updateTable('maintenance_item').set(basis).where('id', '=', item.id).execute();
        const made = await insertPending(
          trx,
          { ...item, ...basis, cycle_hours: num(item.cycle_hours), id: item.id, genset_id: set.id },
          t,
        );
        await log(trx, caller, set, 'log.maintTaskDone', {
          name: set.name,
          item: item.name,
          date: input.actualDate,
          hours: runHours,
        });
        return made;
      });
      return { id: task.id, next };
    },

    async history(caller: MaintCaller, input: { token: string; page: number; size: number }) {
      const { set } = await setOf(caller.ctx, input.token, 'view');
      return { ...(await doneTasks(set.id, input.page, input.size)), page: input.page, size: input.size };
    },

    /** Pending tasks of enabled items over the sets the user sees, worst first. */
    async fleetTasks(ctx: SessionContext, filter: 'due' | 'overdue' | 'all') {
      const rows = await visibleSets(db, await fleet.scope.reach(ctx.user, ctx.grant))
        .innerJoin('maintenance_task as t', 't.genset_id', 'g.id')
        .innerJoin('maintenance_item as i', 'i.id', 't.item_id')
        .leftJoin('set_latest as l', 'l.genset_id', 'g.id')
        .select([
          't.id',
          't.item_id',
          't.name',
          't.due_date',
          't.due_hours',
          'i.remind_days',
          'i.remind_hours',
          'g.token',
          'g.name as set_name',
          'g.time_zone',
          'l.values',
        ])
        .where('t.status', '=', 'pending')
        .where('i.enabled', '=', 1)
        .execute();
      const t = now();
      const list: MaintFleetTask[] = [];
      for (const r of rows) {
        const runHours = runHoursIn(r.values);
        const state = stateOf(
          {
            due_date: r.due_date,
            due_hours: num(r.due_hours),
            remind_days: r.remind_days,
            remind_hours: Number(r.remind_hours),
          },
          dateIn(r.time_zone, t),
          runHours,
        );
        if (filter === 'overdue' && state !== 'overdue') continue;
        if (filter === 'due' && state === 'ok') continue;
        list.push({
          id: r.id,
          itemId: r.item_id,
          name: r.name,
          token: r.token,
          setName: r.set_name,
          dueDate: r.due_date,
          dueHours: num(r.due_hours),
          runHours,
          state,
        });
      }
      return list.sort(
        (a, b) =>
          SEVERITY[a.state] - SEVERITY[b.state] ||
          (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') ||
          a.setName.localeCompare(b.setName) ||
          a.id - b.id,
      );
    },

    async tasks(ctx: SessionContext, input: { state: 'due' | 'overdue' | 'all'; page: number; size: number }) {
      const all = await this.fleetTasks(ctx, input.state);
      const start = (input.page - 1) * input.size;
      return { list: all.slice(start, start + input.size), total: all.length, page: input.page, size: input.size };
    },

    /** Due (reminder window reached, not yet past) and overdue tasks over the sets the user sees. */
    async counts(ctx: SessionContext) {
      const all = await this.fleetTasks(ctx, 'due');
      const overdue = all.filter((x) => x.state === 'overdue').length;
      return { due: all.length - overdue, overdue };
    },

    async templates(ctx: SessionContext) {
      templateRights(ctx);
      const rows = await db
        .selectFrom('maintenance_template')
        .selectAll()
        .where('company_id', '=', ctx.user.company_id)
        .orderBy('model')
        .orderBy('name')
        .execute();
      const sets = await db
        .selectFrom('genset')
        .select('details')
        .where('company_id', '=', ctx.user.company_id)
        .where('deleted_at', 'is', null)
        .execute();
      const models = sets.map((s) => (parseDetails(s.details).model ?? '').trim().toLowerCase());
      return {
        list: rows.map((r) => ({
          id: r.id,
          name: r.name,
          model: r.model,
          items: templateItems(r.items),
          sets: models.filter((m) => m === r.model.trim().toLowerCase()).length,
          updatedAt: Number(r.updated_at),
        })),
      };
    },

    async saveTemplate(
      caller: MaintCaller,
      input: { id?: number | undefined; name: string; model: string; items: MaintTemplateItem[] },
    ) {
      templateRights(caller.ctx);
      input.items.forEach((item, i) => {
        try {
          checkCycle(item);
        } catch (err) {
          if (err instanceof AppError) throw fieldError(`items.${i}`, 'maintenance.cycleOrRemind');
          throw err;
        }
      });
      const names = input.items.map((i) => i.name.trim().toLowerCase());
      if (new Set(names).size !== names.length) throw fieldError('items', 'maintenance.nameRepeated');
      const items = JSON.stringify(
        input.items.map((i) => ({
          name: i.name,
          cycleDays: i.cycleDays || null,
          cycleHours: i.cycleHours || null,
          remindDays: i.remindDays,
          remindHours: i.remindHours,
          replacedModel: i.replacedModel,
          remark: i.remark,
        })),
      );
      const t = now();
      let id: number;
      if (input.id !== undefined) {
        const row = await templateOf(caller.ctx, input.id);
        await db
          .updateTable('maintenance_template')
          .set({ name: input.name, model: input.model, items, updated_at: t })
          .where('id', '=', row.id)
          .execute();
        id = row.id;
      } else {
        const row = await db
          .insertInto('maintenance_template')
          .values({
            company_id: caller.ctx.user.company_id,
            name: input.name,
            model: input.model,
            items,
            created_at: t,
            updated_at: t,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = row.id;
      }
      await templateLog(caller, 'log.maintTemplateSaved', { template: input.name, model: input.model }, id);
      return { id };
    },

    async deleteTemplate(caller: MaintCaller, id: number) {
      templateRights(caller.ctx);
      const row = await templateOf(caller.ctx, id);
      await db.deleteFrom('maintenance_template').where('id', '=', row.id).execute();
      await templateLog(caller, 'log.maintTemplateDeleted', { template: row.name, model: row.model }, row.id);
      return { id: row.id };
    },

    /** Adds the template's items to each set, leaving out those a set already has under the same name. */
    async applyTemplate(caller: MaintCaller, input: { id: number; tokens: string[]; all: boolean }) {
      templateRights(caller.ctx);
      const template = await templateOf(caller.ctx, input.id);
      const items = templateItems(template.items);
      const targets: GensetRow[] = [];
      if (input.all) {
        for (const set of await companySetsOfModel(caller.ctx.user.company_id, template.model)) {
          if (atLeast(await fleet.rightsOn(caller.ctx.user, caller.ctx.grant, set), 'manage')) targets.push(set);
        }
      }
      for (const token of input.tokens) {
        const { set } = await setOf(caller.ctx, token, 'manage');
        if (!targets.some((s) => s.id === set.id)) targets.push(set);
      }
      if (targets.length === 0) throw fieldError('tokens', 'validation.required');
      const t = now();
      let added = 0;
      let skipped = 0;
      const plans: { set: GensetRow; add: typeof items; runHours: number | null }[] = [];
      for (const set of targets) {
        const have = await db.selectFrom('maintenance_item').select('name').where('genset_id', '=', set.id).execute();
        const add = items.filter((i) => !have.some((h) => sameName(h.name, i.name)));
        skipped += items.length - add.length;
        if (have.length + add.length > MAINT_MAX_ITEMS)
          throw new AppError(ResultCode.conflict, 'maintenance.tooManyItems', { max: MAINT_MAX_ITEMS });
        plans.push({ set, add, runHours: await runHoursOf(set.id) });
      }
      await db.transaction().execute(async (trx) => {
        for (const { set, add, runHours } of plans) {
          const today = dateIn(set.time_zone, t);
          for (const i of add) {
            const values = {
              genset_id: set.id,
              name: i.name,
              cycle_days: i.cycleDays,
              cycle_hours: i.cycleHours,
              remind_days: i.remindDays,
              remind_hours: i.remindHours,
              latest_date: today,
              latest_hours: runHours,
              planned_date: null,
              replaced_model: i.replacedModel,
              remark: i.remark,
              enabled: 1,
              created_at: t,
              updated_at: t,
            };
            const row = await trx
              .insertInto('maintenance_item')
              .values(values)
              .returning('id')
              .executeTakeFirstOrThrow();
            await insertPending(trx, { ...values, id: row.id }, t);
            added++;
          }
          await log(trx, caller, set, 'log.maintTemplateApplied', {
            name: set.name,
            template: template.name,
            added: add.length,
          });
        }
      });
      return { sets: targets.length, added, skipped };
    },

    /** A maintenance link: shown once, kept hashed, valid for `days` unless revoked. */
    async createLink(caller: MaintCaller, input: { token: string; days: number }) {
      const { set } = await setOf(caller.ctx, input.token, 'manage');
      const mtoken = newToken();
      const t = now();
      const expiresAt = t + input.days * DAY;
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('maintenance_link')
          .values({
            genset_id: set.id,
            token_hash: hashToken(mtoken),
            created_by: caller.ctx.user.id,
            created_at: t,
            expires_at: expiresAt,
            revoked_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await log(trx, caller, set, 'log.maintLinkCreated', { name: set.name, days: input.days });
        return inserted;
      });
      return { id: row.id, mtoken, expiresAt };
    },

    async revokeLink(caller: MaintCaller, input: { token: string; id: number }) {
      const { set } = await setOf(caller.ctx, input.token, 'manage');
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('maintenance_link')
          .set({ revoked_at: now() })
          .where('id', '=', input.id)
          .where('genset_id', '=', set.id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw notFound();
        await log(trx, caller, set, 'log.maintLinkRevoked', { name: set.name });
      });
      return { id: input.id };
    },

    /** What a maintenance link shows: the set's plan and its latest done tasks, nothing else. */
    async publicView(mtoken: string) {
      const link = await db
        .selectFrom('maintenance_link')
        .selectAll()
        .where('token_hash', '=', hashToken(mtoken))
        .executeTakeFirst();
      if (!link) throw new AppError(ResultCode.forbidden, 'maintenance.linkUnknown');
      if (link.revoked_at !== null) throw new AppError(ResultCode.forbidden, 'maintenance.linkRevoked');
      if (Number(link.expires_at) <= now()) throw new AppError(ResultCode.forbidden, 'maintenance.linkExpired');
      const set = await db
        .selectFrom('genset')
        .selectAll()
        .where('id', '=', link.genset_id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!set) throw new AppError(ResultCode.forbidden, 'maintenance.linkUnknown');
      const plan = await planOf(set);
      const history = await doneTasks(set.id, 1, HISTORY_PUBLIC);
      return { name: set.name, ...plan, expiresAt: Number(link.expires_at), history: history.list };
    },
  };
}
export type MaintenanceService = ReturnType<typeof createMaintenanceService>;
