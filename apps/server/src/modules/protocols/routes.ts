// HTTP of the protocol-management screens (command management, module status, protocol, config menu,
// config protocol, config read, dropdowns and their coordinates). Every call needs protocol:manage.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  Permission,
  PROTOCOL_PARTS,
  protocolCopyRequest,
  protocolDetail,
  protocolDocumentRequest,
  protocolDocumentSchema,
  protocolIdParams,
  protocolIdRequest,
  protocolListRequest,
  protocolListResponse,
  protocolPublishResponse,
  protocolSaveRequest,
  protocolVersionRef,
} from '@genset/protocol';
import { clientInfo } from '../../plugins/auth.ts';
import { emptyEnvelope, envelope } from '../../lib/envelope.ts';
import type { ProtocolService } from './service.ts';

const REFUSAL =
  ' A refused document answers code 400 with `data.problems` ([{path, rule, params, message}], e.g. path `items[3](gen_kw).address`, rule `protocolDoc.overlaps`), each message in the language of the request.';

/**
 * The schema check of a route carrying protocol content only decides about the other fields (their refusal is
 * worded by the error handler in the request's language): the content itself is checked as a whole document by
 * the service, which names the exact place of every problem (worded by the error handler too).
 */
function passDocumentProblems(req: FastifyRequest, documentFields: readonly string[]) {
  const error = req.validationError as (Error & { validation?: { instancePath: string }[] }) | undefined;
  if (!error) return;
  const body = req.body;
  if (!body || typeof body !== 'object') throw error;
  const outside = (error.validation ?? []).some((issue) => {
    const field = issue.instancePath.split('/')[1] ?? '';
    return !documentFields.includes(field) || (body as Record<string, unknown>)[field] === undefined;
  });
  if (outside) throw error;
}

export async function protocolRoutes(app: FastifyInstance, opts: { protocols: ProtocolService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { protocols } = opts;
  const tags = ['protocols'];
  const actor = (req: FastifyRequest) => ({ ctx: req.session!, ip: clientInfo(req).ip });

  r.post('/protocol/list', {
    schema: {
      tags,
      summary: 'Protocol versions, newest first per protocol, paged',
      body: protocolListRequest,
      response: { 200: envelope(protocolListResponse) },
    },
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => reply.ok(await protocols.list(req.body, req.lang)),
  });

  r.get('/protocol/info/:id', {
    schema: {
      tags,
      summary:
        'One protocol version with its items, alarms, commands, module-status points, config menus, params, read blocks, dropdowns and their coordinates',
      params: protocolIdParams,
      response: { 200: envelope(protocolDetail) },
    },
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => reply.ok(await protocols.info(req.params.id)),
  });

  r.post('/protocol/add', {
    schema: {
      tags,
      summary: `Create a protocol from a whole document (new key; draft version 1).${REFUSAL}`,
      body: protocolDocumentRequest,
      response: { 200: envelope(protocolVersionRef) },
    },
    attachValidation: true,
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => {
      passDocumentProblems(req, ['document']);
      return reply.ok(await protocols.create(req.body.document, actor(req)), 'success.saved');
    },
  });

  r.post('/protocol/copy', {
    schema: {
      tags,
      summary: `Copy a version under a new key (draft version 1), optionally with a new name.${REFUSAL}`,
      body: protocolCopyRequest,
      response: { 200: envelope(protocolVersionRef) },
    },
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => reply.ok(await protocols.copy(req.body, actor(req)), 'success.saved'),
  });

  r.post('/protocol/save', {
    schema: {
      tags,
      summary: `Replace parts of a version: a published version gets a new draft version, a draft is edited in place.${REFUSAL}`,
      body: protocolSaveRequest,
      response: { 200: envelope(protocolVersionRef) },
    },
    attachValidation: true,
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => {
      passDocumentProblems(req, PROTOCOL_PARTS);
      return reply.ok(await protocols.save(req.body, actor(req)), 'success.saved');
    },
  });

  r.post('/protocol/publish', {
    schema: {
      tags,
      summary: 'Publish a draft: the sets of the protocol move to it and their modules get the new poll plan at once',
      body: protocolIdRequest,
      response: { 200: envelope(protocolPublishResponse) },
    },
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => reply.ok(await protocols.publish(req.body.id, actor(req)), 'success.operation'),
  });

  r.post('/protocol/del', {
    schema: {
      tags,
      summary: 'Delete a version; the published version that sets run on is refused with 409',
      body: protocolIdRequest,
      response: { 200: emptyEnvelope },
    },
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => {
      await protocols.remove(req.body.id, actor(req));
      return reply.ok(null, 'success.operation');
    },
  });

  r.get('/protocol/export/:id', {
    schema: {
      tags,
      summary: 'The document of a version as a JSON file (what /protocol/import takes back)',
      params: protocolIdParams,
      response: { 200: protocolDocumentSchema },
    },
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => {
      const { fileName, document } = await protocols.exportDocument(req.params.id);
      // A file, not an envelope: its own media type keeps it out of the optional body encryption too.
      return reply
        .header('content-type', 'application/vnd.genset-protocol+json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(document);
    },
  });

  r.post('/protocol/import', {
    schema: {
      tags,
      summary: `Import an exported document as a draft: a new key keeps its version, a known key gets the next one.${REFUSAL}`,
      body: protocolDocumentRequest,
      response: { 200: envelope(protocolVersionRef) },
    },
    attachValidation: true,
    config: { access: { permission: Permission.protocolManage, scope: 'none' } },
    handler: async (req, reply) => {
      passDocumentProblems(req, ['document']);
      return reply.ok(await protocols.importDocument(req.body.document, actor(req)), 'success.saved');
    },
  });
}
