// Which data items a user sees on a set's realtime page, and in which order (per user and set; without a
// choice of their own, the protocol's realtime items), and which items history and alarm queries offer.
import { MAX_REALTIME_ITEMS, ResultCode, type DataItem, type Language } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { SessionContext } from '../auth/service.ts';
import type { GensetRow } from '../devices/fleet.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { DeviceService } from '../devices/service.ts';
import { writeSetLog } from '../../lib/operation-log.ts';

export interface DataSelectionOptions {
  db: Db;
  devices: Pick<DeviceService, 'resolve'>;
  protocols: ProtocolStore;
}

function itemError(rule: string, params: Record<string, string | number>): AppError {
  return new AppError(ResultCode.invalid, 'errors.validation', {}, { fieldErrors: [{ field: 'items', rule, params }] });
}

/** Items with a value worth a trend or an alarm query: numbers, not bits, states or positions. */
function isMeasurement(item: DataItem): boolean {
  return item.type !== 'bit' && !item.enum && item.group !== 'status' && item.group !== 'location';
}

export function createDataSelectionService(opts: DataSelectionOptions) {
  const { db, devices, protocols } = opts;

  async function itemsOf(set: GensetRow): Promise<DataItem[]> {
    return (await protocols.get(set.protocol_key))?.doc.items ?? [];
  }

  /** The user's keys still known to the protocol, or null for the protocol's default. */
  async function chosen(userId: number, set: GensetRow, items: readonly DataItem[]): Promise<string[] | null> {
    const row = await db
      .selectFrom('item_selection')
      .select('items')
      .where('user_id', '=', userId)
      .where('genset_id', '=', set.id)
      .executeTakeFirst();
    if (!row) return null;
    const known = new Set(items.map((item) => item.key));
    const keys = (JSON.parse(row.items) as string[]).filter((key) => known.has(key));
    // A choice whose items all left the protocol falls back to the default rather than an empty page.
    return keys.length > 0 ? keys : null;
  }

  function meta(item: DataItem, lang: Language) {
    return { key: item.key, name: item.name[lang], group: item.group, unit: item.unit, decimals: item.decimals };
  }

  async function selection(ctx: SessionContext, set: GensetRow, lang: Language) {
    const items = await itemsOf(set);
    const keys = await chosen(ctx.user.id, set, items);
    const byKey = new Map(items.map((item) => [item.key, item]));
    const selected = keys ? keys.map((key) => byKey.get(key)!) : items.filter((item) => item.realtime);
    return {
      custom: keys !== null,
      max: MAX_REALTIME_ITEMS,
      items: selected.map((item) => meta(item, lang)),
      available: items.map((item) => ({ ...meta(item, lang), realtime: item.realtime })),
    };
  }

  return {
    async select(ctx: SessionContext, token: string, lang: Language) {
      const { set } = await devices.resolve(ctx, token, 'view');
      return selection(ctx, set, lang);
    },

    async edit(ctx: SessionContext, input: { token: string; items: string[] }, lang: Language, ip: string) {
      const { set } = await devices.resolve(ctx, input.token, 'view');
      if (input.items.length > MAX_REALTIME_ITEMS) throw itemError('validation.maxItems', { max: MAX_REALTIME_ITEMS });
      const known = new Set((await itemsOf(set)).map((item) => item.key));
      const seen = new Set<string>();
      for (const key of input.items) {
        if (!known.has(key)) throw itemError('validation.itemUnknown', { item: key });
        if (seen.has(key)) throw itemError('validation.itemRepeated', { item: key });
        seen.add(key);
      }
      const now = Date.now();
      await db
        .insertInto('item_selection')
        .values({ user_id: ctx.user.id, genset_id: set.id, items: JSON.stringify(input.items), updated_at: now })
        .onConflict((oc) =>
          oc.columns(['user_id', 'genset_id']).doUpdateSet({ items: JSON.stringify(input.items), updated_at: now }),
        )
        .execute();
      // The realtime page's items are the user's own view of a set: logged like any other write.
      await writeSetLog(db, {
        ctx,
        ip,
        set,
        matter: 'log.itemsChosen',
        feedback: { name: set.name, count: input.items.length },
      });
      return selection(ctx, set, lang);
    },

    async reset(ctx: SessionContext, token: string, lang: Language, ip: string) {
      const { set } = await devices.resolve(ctx, token, 'view');
      await db
        .deleteFrom('item_selection')
        .where('user_id', '=', ctx.user.id)
        .where('genset_id', '=', set.id)
        .execute();
      await writeSetLog(db, { ctx, ip, set, matter: 'log.itemsReset', feedback: { name: set.name } });
      return selection(ctx, set, lang);
    },

    /** The measurements a history or alarm query can plot, marked when on the user's realtime page. */
    async monitorWithSelect(ctx: SessionContext, token: string, lang: Language) {
      const { set } = await devices.resolve(ctx, token, 'view');
      const items = await itemsOf(set);
      const keys = await chosen(ctx.user.id, set, items);
      const selected = new Set(keys ?? items.filter((item) => item.realtime).map((item) => item.key));
      return {
        items: items.filter(isMeasurement).map((item) => ({ ...meta(item, lang), selected: selected.has(item.key) })),
      };
    },
  };
}
export type DataSelectionService = ReturnType<typeof createDataSelectionService>;
