// Price templates: listed with their latest version and how many stations use them, saved in versions (every
// save a new one, in force from its start, which may not lie in the past), shown in any version, and deleted
// once no station uses them; and made by the server itself for the demo. A saved version makes ingestion read
// the stations' energy bindings again.
import {
  priceTemplateBody,
  ResultCode,
  SV,
  type PriceTemplateBody,
  type TemplateInfoResponse,
  type TemplateListItem,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import { parseVersions } from './energy.ts';
import type { SiteCaller, SiteContext } from './context.ts';

/** A template version may start this long before the save (clocks of console and server differ a little). */
const VALID_FROM_SLACK_MS = 5 * 60_000;

export function createTemplates({ db, repo, now, changed, isPlatform, requirePermission }: SiteContext) {
  // ---- templates ---------------------------------------------------------------------------------------------

  async function templateOf(ctx: SessionContext, id: number) {
    const template = await repo.template(db, id);
    if (!template || (!isPlatform(ctx.grant) && template.company_id !== ctx.user.company_id)) throw notFound();
    return template;
  }

  async function saveVersion(input: {
    templateId: number | null;
    companyId: number;
    name: string;
    body: PriceTemplateBody;
    validFrom: number;
    userId: number | null;
    userName: string;
    onSaved?: (trx: Db, saved: { id: number; version: number }) => Promise<void>;
  }) {
    const at = now();
    const saved = await db.transaction().execute(async (trx) => {
      let id = input.templateId;
      if (id === null)
        id = await repo.insertTemplate(trx, {
          companyId: input.companyId,
          name: input.name,
          userId: input.userId,
          now: at,
        });
      else await repo.renameTemplate(trx, id, input.name, at);
      const versions = await repo.versions(trx, [id]);
      const version = (versions.at(-1)?.version ?? 0) + 1;
      await repo.insertVersion(trx, {
        templateId: id,
        version,
        body: JSON.stringify(input.body),
        validFrom: input.validFrom,
        userId: input.userId,
        userName: input.userName,
        now: at,
      });
      await input.onSaved?.(trx, { id, version });
      return { id, version };
    });
    changed();
    return { ...saved, validFrom: input.validFrom };
  }

  return {
    async templateList(ctx: SessionContext, req: { page: number; size: number; name?: string | undefined }) {
      requirePermission(ctx.grant, 'view');
      const { rows: templates, total } = await repo.templates(ctx.user.company_id, req.name, req.page, req.size);
      const ids = templates.map((t) => t.id);
      const versions = await repo.versions(db, ids);
      const using = await repo.stationsUsing(ids);
      const list: TemplateListItem[] = [];
      for (const t of templates) {
        const latest = versions.filter((v) => v.templateId === t.id).at(-1);
        if (!latest) continue;
        list.push({
          id: t.id,
          name: t.name,
          version: latest.version,
          validFrom: latest.validFrom,
          body: priceTemplateBody.parse(JSON.parse(latest.body)),
          stations: using.filter((s) => s.template_id === t.id).length,
          updatedAt: Number(t.updated_at),
          updatedBy: latest.createdBy,
        });
      }
      return { list, total, page: req.page, size: req.size };
    },

    async templateSave(
      caller: SiteCaller,
      req: PriceTemplateBody & { id?: number | undefined; name: string; validFrom?: number | undefined },
    ) {
      requirePermission(caller.ctx.grant, 'manage');
      const { id, name, validFrom, ...rest } = req;
      const body = priceTemplateBody.parse(rest);
      const at = now();
      const from = validFrom ?? at;
      if (from < at - VALID_FROM_SLACK_MS) throw fieldError('validFrom', SV.validFromPast);
      const existing = id === undefined ? undefined : await templateOf(caller.ctx, id);
      const companyId = existing?.company_id ?? caller.ctx.user.company_id;
      return saveVersion({
        templateId: existing?.id ?? null,
        companyId,
        name,
        body,
        validFrom: from,
        userId: caller.ctx.user.id,
        userName: caller.ctx.user.nickname ?? caller.ctx.user.account,
        onSaved: (trx, saved) =>
          writeOperationLog(trx, {
            ctx: caller.ctx,
            companyId,
            ip: caller.ip,
            matter: 'log.templateSaved',
            feedback: { name, version: saved.version },
            target: `template:${saved.id}`,
          }),
      });
    },

    async templateInfo(
      ctx: SessionContext,
      req: { id: number; version?: number | undefined },
    ): Promise<TemplateInfoResponse> {
      requirePermission(ctx.grant, 'view');
      const template = await templateOf(ctx, req.id);
      const versions = await repo.versions(db, [template.id]);
      const shown = req.version === undefined ? versions.at(-1) : versions.find((v) => v.version === req.version);
      if (!shown) throw notFound();
      const stations = await repo.stationsUsing([template.id]);
      return {
        id: template.id,
        name: template.name,
        version: shown.version,
        validFrom: shown.validFrom,
        body: priceTemplateBody.parse(JSON.parse(shown.body)),
        versions: versions.map((v) => ({
          version: v.version,
          validFrom: v.validFrom,
          createdAt: v.createdAt,
          createdBy: v.createdBy,
        })),
        stations: stations.map((s) => ({ token: s.token, name: s.name })),
      };
    },

    async templateDelete(caller: SiteCaller, id: number) {
      requirePermission(caller.ctx.grant, 'manage');
      const template = await templateOf(caller.ctx, id);
      const using = await repo.stationsUsing([template.id]);
      if (using.length)
        throw new AppError(ResultCode.conflict, 'sites.templateInUse', {
          stations: using.map((s) => s.name).join(', '),
        });
      const deleted = await db.transaction().execute(async (trx) => {
        const n = await repo.deleteTemplate(trx, template.id, now());
        await writeOperationLog(trx, {
          ctx: caller.ctx,
          companyId: template.company_id,
          ip: caller.ip,
          matter: 'log.templateDeleted',
          feedback: { name: template.name },
          target: `template:${template.id}`,
        });
        return n;
      });
      return { deleted };
    },

    // ---- for the demo and other server code ------------------------------------------------------------------

    /** A price template made by the server itself (the demo's), or a new version of it. */
    async createTemplate(input: {
      companyId: number;
      name: string;
      body: PriceTemplateBody;
      templateId?: number;
      validFrom?: number;
      userId?: number;
    }) {
      return saveVersion({
        templateId: input.templateId ?? null,
        companyId: input.companyId,
        name: input.name,
        body: priceTemplateBody.parse(input.body),
        validFrom: input.validFrom ?? now(),
        userId: input.userId ?? null,
        userName: '',
      });
    },

    /** The versions of templates as energy counting reads them (for tests and checks). */
    async templateVersions(templateIds: readonly number[]) {
      return parseVersions(await repo.versions(db, templateIds));
    },
  };
}
