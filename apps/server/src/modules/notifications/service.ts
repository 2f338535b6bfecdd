// The message centre: a person's notices, newest first, in the language they read them in; marking them read.
import type { NoticeItem, NoticeKind, NoticeLevel, NoticeListResponse } from '@genset/protocol';
import type { Language } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { RealtimeBus } from '../devices/bus.ts';
import { renderNotice, type NoticeFacts } from './render.ts';

export function createNoticeService(deps: { db: Db; bus: RealtimeBus }) {
  const { db } = deps;

  async function unread(userId: number): Promise<number> {
    const row = await db
      .selectFrom('notification')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every console of the person shows the new count (reading on one device clears the bell on the others). */
  async function announce(userId: number) {
    const n = await unread(userId);
    deps.bus.publish('notice', { unread: { [userId]: n } });
    return n;
  }

  return {
    unread,
    async list(
      userId: number,
      lang: Language,
      req: { page: number; size: number; unread?: boolean | undefined },
    ): Promise<NoticeListResponse> {
      let q = db.selectFrom('notification').where('user_id', '=', userId);
      if (req.unread) q = q.where('read_at', 'is', null);
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(req.size)
        .offset((req.page - 1) * req.size)
        .execute();
      const list: NoticeItem[] = rows.map((r) => {
        const facts = JSON.parse(r.payload) as NoticeFacts;
        const kind = r.kind as NoticeKind;
        const words = renderNotice(kind, facts, lang);
        return {
          id: r.id,
          kind,
          level: r.level as NoticeLevel,
          title: words.title,
          text: words.text,
          token: typeof facts.token === 'string' ? facts.token : null,
          link: words.link,
          createdAt: Number(r.created_at),
          readAt: r.read_at === null ? null : Number(r.read_at),
        };
      });
      return { list, total: Number(total.n), unread: await unread(userId) };
    },
    async mark(userId: number, ids: number[], read: boolean) {
      await db
        .updateTable('notification')
        .set({ read_at: read ? Date.now() : null })
        .where('user_id', '=', userId)
        .where('id', 'in', ids)
        .execute();
      return { unread: await announce(userId) };
    },
    async markAll(userId: number) {
      await db
        .updateTable('notification')
        .set({ read_at: Date.now() })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .execute();
      return { unread: await announce(userId) };
    },
  };
}
export type NoticeService = ReturnType<typeof createNoticeService>;
