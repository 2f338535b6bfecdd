// HTTP of the user manual, in the request's language.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { V } from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { createHelpService } from './service.ts';

const pageSummary = z.object({ slug: z.string(), title: z.string() });

export async function helpRoutes(app: FastifyInstance, opts: { help: ReturnType<typeof createHelpService> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['help'];
  r.get('/help/list', {
    schema: { tags, summary: 'Pages of the user manual', response: { 200: envelope(z.array(pageSummary)) } },
    config: { access: { signedIn: true, scope: 'none' } },
    handler: async (req, reply) => reply.ok(opts.help.list(req.lang)),
  });
  r.get('/help/info', {
    schema: {
      tags,
      summary: 'One page of the user manual as Markdown',
      querystring: z.strictObject({
        slug: z.string({ error: V.required }).regex(/^[a-z0-9-]{1,60}$/, { error: V.invalid }),
      }),
      response: { 200: envelope(pageSummary.extend({ markdown: z.string() })) },
    },
    config: { access: { signedIn: true, scope: 'none' } },
    handler: async (req, reply) => reply.ok(opts.help.page(req.lang, req.query.slug)),
  });
}
