// HTTP of repair requests (spec 7, "Repair"): the request form as multipart (text fields and up to six
// pictures), the caller's own requests, the company's service queue, one request with its steps, moving it
// along, and its pictures. Multipart is taken by these routes only.
//
// Pictures are answered by GET /baoxiu/picture, a signed call of a signed-in user like any other: the console
// fetches them with its request headers and shows them from data: addresses. An <img src> cannot send the
// token, and a token or a signed link in an address ends up in histories and logs; a picture fetched by the API
// client needs neither.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  REPAIR_PICTURE_BYTES_MAX,
  REPAIR_PICTURES_MAX,
  ResultCode,
  V,
  repairAddFields,
  repairAddResponse,
  repairDetailRequest,
  repairDetailResponse,
  repairListRequest,
  repairListResponse,
  repairPictureRequest,
  repairUpdateRequest,
  repairUpdateResponse,
  type RepairAddFields,
  Permission,
} from '@genset/protocol';
import { clientInfo } from '../../plugins/auth.ts';
import { envelope } from '../../lib/envelope.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { NotAPicture, type IncomingPicture, type PictureStore } from './pictures.ts';
import type { RepairCaller, RepairService } from './service.ts';

/** Text sent beside the pictures may not exceed this per field (1000 characters of any script fit). */
const FIELD_BYTES_MAX = 8 * 1024;
/** The largest whole form: every picture at its limit, plus the text fields and the form's own framing. */
const FORM_BYTES_MAX = REPAIR_PICTURES_MAX * REPAIR_PICTURE_BYTES_MAX + 256 * 1024;
const MB = Math.round(REPAIR_PICTURE_BYTES_MAX / (1024 * 1024));

/** Fields the console adds to every body (their headers say the same). */
const CONSOLE_FIELDS = new Set(['language', 'timezone']);

const tooLarge = () => new AppError(ResultCode.invalid, 'repairs.tooLarge', { max: REPAIR_PICTURES_MAX, mb: MB });
const pictureTooLarge = () => new AppError(ResultCode.invalid, 'repairs.pictureTooLarge', { mb: MB });
const tooMany = () => new AppError(ResultCode.invalid, 'repairs.tooManyPictures', { max: REPAIR_PICTURES_MAX });

/** The refusal for what went wrong while the form was read. */
function refusalOf(err: unknown, fileName: string): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof NotAPicture)
    return new AppError(ResultCode.invalid, 'repairs.notPicture', { name: fileName.slice(0, 80) });
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return pictureTooLarge();
  if (code === 'FST_FILES_LIMIT') return tooMany();
  return new AppError(ResultCode.invalid, 'errors.invalidBody');
}

/** Reads the form: the text fields, and each picture into the incoming folder (removed again on any refusal). */
async function receiveForm(req: FastifyRequest, store: PictureStore) {
  if (!req.isMultipart()) throw new AppError(ResultCode.invalid, 'repairs.multipartRequired');
  const declared = Number(req.headers['content-length']);
  // Refused before a byte of it is read.
  if (Number.isFinite(declared) && declared > FORM_BYTES_MAX) throw tooLarge();
  // no prototype: a field named __proto__ is just an unknown field
  const fields = Object.create(null) as Record<string, string>;
  const pictures: IncomingPicture[] = [];
  let fileName = '';
  try {
    const parts = req.parts({
      limits: {
        fileSize: REPAIR_PICTURE_BYTES_MAX,
        files: REPAIR_PICTURES_MAX,
        fields: 12,
        parts: REPAIR_PICTURES_MAX + 12,
        fieldSize: FIELD_BYTES_MAX,
        fieldNameSize: 40,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        fileName = part.filename;
        if (part.fieldname !== 'pictures') {
          part.file.resume();
          throw new AppError(
            ResultCode.invalid,
            'errors.validation',
            {},
            {
              fieldErrors: [{ field: part.fieldname.slice(0, 40), rule: 'validation.unknownField' }],
            },
          );
        }
        pictures.push(await store.receive(part.file));
        if (pictures.length > REPAIR_PICTURES_MAX) throw tooMany();
      } else {
        if (part.valueTruncated) {
          throw new AppError(
            ResultCode.invalid,
            'errors.validation',
            {},
            {
              fieldErrors: [{ field: part.fieldname, rule: V.tooLong }],
            },
          );
        }
        if (CONSOLE_FIELDS.has(part.fieldname)) continue;
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
    return { fields, pictures };
  } catch (err) {
    await store.discard(pictures);
    throw refusalOf(err, fileName);
  }
}

/** The form's text fields checked as a JSON body would be, with the same field messages. */
function checkFields(fields: Record<string, string>): RepairAddFields {
  const parsed = repairAddFields.safeParse(fields);
  if (parsed.success) return parsed.data;
  const fieldErrors = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return { field: issue.keys[0] ?? 'body', rule: 'validation.unknownField' };
    const field = String(issue.path[0] ?? 'body');
    return { field, rule: issue.message.startsWith('validation.') ? issue.message : V.invalid };
  });
  throw new AppError(ResultCode.invalid, 'errors.validation', {}, { fieldErrors });
}

export async function repairRoutes(app: FastifyInstance, opts: { repairs: RepairService; store: PictureStore }) {
  const { repairs, store } = opts;
  // Limits are given per call (receiveForm); these are the defaults of anything else reading a form here.
  await app.register(multipart, {
    limits: { fileSize: REPAIR_PICTURE_BYTES_MAX, files: REPAIR_PICTURES_MAX, fieldSize: FIELD_BYTES_MAX },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['repairs'];
  const caller = (req: FastifyRequest): RepairCaller => ({ ctx: req.session!, ip: clientInfo(req).ip });

  r.post('/baoxiu/add', {
    schema: {
      tags,
      summary:
        'A repair request on a set the caller sees (multipart/form-data): token (the set), contact, phone, address, ' +
        `description, and up to ${REPAIR_PICTURES_MAX} files in "pictures" (JPEG, PNG or WebP by content, ` +
        `${MB} MB each). A refused form leaves nothing behind`,
      consumes: ['multipart/form-data'],
      response: { 200: envelope(repairAddResponse) },
    },
    config: {
      access: { signedIn: true, scope: 'set' },
      fieldLabels: { phone: 'contactPhone', address: 'serviceAddress', description: 'faultDescription' },
    },
    handler: async (req, reply) => {
      const { fields, pictures } = await receiveForm(req, store);
      let checked: RepairAddFields;
      try {
        checked = checkFields(fields);
      } catch (err) {
        await store.discard(pictures);
        throw err;
      }
      return reply.ok(await repairs.add(caller(req), checked, pictures), 'repairs.submitted');
    },
  });

  r.get('/baoxiu/my', {
    schema: {
      tags,
      summary: 'The caller’s own repair requests, latest change first (query: page, size, state)',
      querystring: repairListRequest,
      response: { 200: envelope(repairListResponse) },
    },
    config: { fieldLabels: { state: 'repairState' }, access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await repairs.my(req.session!, req.query)),
  });

  r.get('/baoxiu/list', {
    schema: {
      tags,
      summary:
        'The service queue (repair:manage): requests on the sets of the caller’s company, latest change first ' +
        '(query: page, size, state)',
      querystring: repairListRequest,
      response: { 200: envelope(repairListResponse) },
    },
    config: {
      fieldLabels: { state: 'repairState' },
      access: { permission: Permission.repairManage, scope: 'company' },
    },
    handler: async (req, reply) => reply.ok(await repairs.queue(req.session!, req.query)),
  });

  r.get('/baoxiu/detail', {
    schema: {
      tags,
      summary:
        'One repair request (its requester or the service side): fields, pictures, every step with note, who and ' +
        'when, and the states the caller may move it to',
      querystring: repairDetailRequest,
      response: { 200: envelope(repairDetailResponse) },
    },
    config: { fieldLabels: { token: 'repairRequest' }, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await repairs.detail(req.session!, req.query.token)),
  });

  r.post('/baoxiu/update', {
    schema: {
      tags,
      summary:
        'Move a request to its next state with a note (service side): submitted → accepted → in_progress → done, ' +
        'or rejected (note required) before done. 409 for any other step',
      body: repairUpdateRequest,
      response: { 200: envelope(repairUpdateResponse) },
    },
    config: {
      fieldLabels: { token: 'repairRequest', state: 'repairState', note: 'repairNote' },
      access: { permission: Permission.repairManage, scope: 'set' },
    },
    handler: async (req, reply) => reply.ok(await repairs.update(caller(req), req.body), 'repairs.updated'),
  });

  r.get('/baoxiu/picture', {
    schema: {
      tags,
      summary:
        'One picture of a request, or its thumbnail (thumb=1, JPEG of at most 320 px), for those who may see the ' +
        'request; answered with the image itself',
      querystring: repairPictureRequest,
      response: { 200: z.any() },
    },
    config: { fieldLabels: { token: 'repairRequest', name: 'pictureName' }, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => {
      const { token, name, thumb } = req.query;
      const file = await repairs.picture(req.session!, token, name, thumb === '1');
      const info = await stat(file.path).catch(() => null);
      if (!info?.isFile()) throw notFound();
      return reply
        .type(file.type)
        .header('content-length', info.size)
        .header('cache-control', 'private, max-age=86400')
        .header('content-disposition', 'inline')
        .send(createReadStream(file.path));
    },
  });
}
