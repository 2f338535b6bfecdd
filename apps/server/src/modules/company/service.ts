// Companies as the console sees them: branding by host name, and the company of a signed-in user.
import type { CompanyInfo, CompanyPublic } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import { notFound } from '../../lib/errors.ts';

export const PLATFORM_COMPANY_ID = 1;

export function createCompanyService(deps: { db: Db; config: Config }) {
  const { db, config } = deps;

  async function byId(id: number) {
    return db.selectFrom('company').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  }

  function toPublic(c: { id: number; name: string; title: string; logo: string | null }): CompanyPublic {
    return { id: c.id, name: c.name, title: c.title, logo: c.logo };
  }

  return {
    byId,
    /** The company a host name is bound to, or the platform company for any other host. */
    async byHost(hostname: string | undefined): Promise<CompanyPublic> {
      const host = (hostname ?? '').trim().toLowerCase();
      if (host) {
        const bound = await db
          .selectFrom('company_host')
          .innerJoin('company', 'company.id', 'company_host.company_id')
          .select(['company.id', 'company.name', 'company.title', 'company.logo'])
          .where('company_host.host', '=', host)
          .where('company.deleted_at', 'is', null)
          .executeTakeFirst();
        if (bound) return toPublic(bound);
      }
      const platform = await byId(PLATFORM_COMPANY_ID);
      if (!platform) throw notFound();
      return toPublic(platform);
    },
    async publicInfo(id: number): Promise<CompanyPublic> {
      const c = await byId(id);
      if (!c) throw notFound();
      return toPublic(c);
    },
    async info(id: number): Promise<CompanyInfo> {
      const c = await byId(id);
      if (!c) throw notFound();
      return {
        ...toPublic(c),
        ws: config.publicWsUrl,
        baidukey: c.baidu_key || config.baiduMapKey,
      };
    },
  };
}
export type CompanyService = ReturnType<typeof createCompanyService>;
