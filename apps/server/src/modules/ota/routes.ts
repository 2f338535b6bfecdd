// HTTP of firmware upgrades (spec "/site/upgrade"): the files (multipart upload with hashes computed while
// streaming, list, delete), their assignment to sets, the jobs of a file or of a set, cancelling, and the
// download address the modules fetch a file from. The download needs no console session and no signature: the
// random token of the upgrade in the address is the key, and it works only while that upgrade downloads.
// It answers byte ranges (206), so a module whose connection was cut goes on where it stopped.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  OTA_FILE_BYTES_MAX,
  ResultCode,
  V,
  otaAssignRequest,
  otaAssignResponse,
  otaFileIdRequest,
  otaFileListResponse,
  otaJobCancelRequest,
  otaJobListRequest,
  otaJobListResponse,
  otaUploadFields,
  Permission,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import { AppError } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { FirmwareStore, IncomingFirmware } from './files.ts';
import type { OtaService } from './service.ts';

const FIELD_BYTES_MAX = 4 * 1024;
const MB = Math.round(OTA_FILE_BYTES_MAX / (1024 * 1024));
const CONSOLE_FIELDS = new Set(['language', 'timezone']);
const DOWNLOAD_TOKEN = /^[A-Za-z0-9_-]{20,64}$/;

const tooLarge = () => new AppError(ResultCode.invalid, 'ota.tooLarge', { mb: MB });

function refusalOf(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_FILES_LIMIT') return new AppError(ResultCode.invalid, 'ota.oneFile');
  return new AppError(ResultCode.invalid, 'errors.invalidBody');
}

/** Reads the form: the text fields and the one file (into the incoming folder, removed again on any refusal). */
async function receiveForm(req: FastifyRequest, store: FirmwareStore) {
  if (!req.isMultipart()) throw new AppError(ResultCode.invalid, 'ota.multipartRequired');
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > OTA_FILE_BYTES_MAX + 64 * 1024) throw tooLarge();
  const fields = Object.create(null) as Record<string, string>;
  let file: IncomingFirmware | undefined;
  try {
    const parts = req.parts({
      limits: { fileSize: OTA_FILE_BYTES_MAX, files: 1, fields: 10, parts: 11, fieldSize: FIELD_BYTES_MAX },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new AppError(
            ResultCode.invalid,
            'errors.validation',
            {},
            { fieldErrors: [{ field: part.fieldname.slice(0, 40), rule: 'validation.unknownField' }] },
          );
        }
        file = await store.receive(part.file);
      } else {
        if (part.valueTruncated) {
          throw new AppError(
            ResultCode.invalid,
            'errors.validation',
            {},
            { fieldErrors: [{ field: part.fieldname, rule: V.tooLong }] },
          );
        }
        if (CONSOLE_FIELDS.has(part.fieldname)) continue;
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (err) {
    await store.discard(file);
    throw refusalOf(err);
  }
  if (!file) {
    throw new AppError(
      ResultCode.invalid,
      'errors.validation',
      {},
      { fieldErrors: [{ field: 'file', rule: V.required }] },
    );
  }
  const parsed = otaUploadFields.safeParse(fields);
  if (!parsed.success) {
    await store.discard(file);
    const fieldErrors = parsed.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys')
        return { field: issue.keys[0] ?? 'body', rule: 'validation.unknownField' };
      const field = String(issue.path[0] ?? 'body');
      return { field, rule: issue.message.startsWith('validation.') ? issue.message : V.invalid };
    });
    throw new AppError(ResultCode.invalid, 'errors.validation', {}, { fieldErrors });
  }
  return { fields: parsed.data, file };
}

/** The one byte range a `Range: bytes=a-b` header asks for within `size`, null for none, 'bad' for one past it. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // several ranges or another unit: the whole file
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'bad';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'bad';
  return { start, end };
}

export async function otaRoutes(app: FastifyInstance, opts: { ota: OtaService; store: FirmwareStore }) {
  /** One operation-log entry for a firmware write that succeeded. */
  const logged = (req: FastifyRequest, matter: string, feedback: Record<string, unknown>, target: string) =>
    writeOperationLog(app.database.db, {
      ctx: req.session!,
      companyId: req.session!.user.company_id,
      ip: req.ip,
      matter,
      feedback,
      target,
    });
  const { ota, store } = opts;
  await app.register(multipart, {
    limits: { fileSize: OTA_FILE_BYTES_MAX, files: 1, fieldSize: FIELD_BYTES_MAX },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['ota'];

  r.post('/ota/file/upload', {
    schema: {
      tags,
      summary:
        'Upload a firmware file (ota:manage; multipart/form-data): name, version, target (module or controller), ' +
        `model, optionally the expected sha256 and md5, and the file in "file" (at most ${MB} MB). Its size, MD5 ` +
        'and SHA-256 are computed while it is received; a refused upload leaves nothing behind',
      consumes: ['multipart/form-data'],
      response: { 200: envelope(z.object({ id: z.number(), size: z.number(), md5: z.string(), sha256: z.string() })) },
    },
    config: {
      fieldLabels: { name: 'firmwareName', version: 'firmwareVersion', model: 'firmwareModel' },
      access: { permission: Permission.otaManage, scope: 'company' },
    },
    handler: async (req, reply) => {
      const { fields, file } = await receiveForm(req, store);
      const uploaded = await ota.upload(req.session!, fields, file);
      await logged(req, 'log.firmwareUploaded', { name: fields.name, version: fields.version }, 'firmware');
      return reply.ok(uploaded, 'ota.uploaded');
    },
  });

  r.get('/ota/file/list', {
    schema: {
      tags,
      summary: 'The company’s firmware files (ota:manage), newest first, with how many sets each has reached',
      response: { 200: envelope(otaFileListResponse) },
    },
    config: { access: { permission: Permission.otaManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok({ list: await ota.files(req.session!) }),
  });

  r.post('/ota/file/delete', {
    schema: {
      tags,
      summary: 'Delete a firmware file (ota:manage); refused (409) while an unfinished upgrade uses it',
      body: otaFileIdRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { fieldLabels: { id: 'firmwareFile' }, access: { permission: Permission.otaManage, scope: 'company' } },
    handler: async (req, reply) => {
      await ota.deleteFile(req.session!, req.body.id);
      await logged(req, 'log.firmwareDeleted', { id: req.body.id }, `firmware:${req.body.id}`);
      return reply.ok(null, 'ota.deleted');
    },
  });

  r.post('/ota/job/assign', {
    schema: {
      tags,
      summary:
        'Upgrade sets with a file (ota:manage and manage rights on each set): the sets named by token, or every ' +
        'set of the file’s model (allOfModel), at most `concurrency` downloading at once, optionally only between ' +
        'two hours of the day (UTC). Refused whole when a set’s module or controller is of another model',
      body: otaAssignRequest,
      response: { 200: envelope(otaAssignResponse) },
    },
    config: {
      fieldLabels: { fileId: 'firmwareFile', tokens: 'sets', concurrency: 'concurrency' },
      access: { permission: Permission.otaManage, scope: 'company' },
    },
    handler: async (req, reply) => {
      const assigned = await ota.assign(req.session!, req.body);
      await logged(
        req,
        'log.firmwareAssigned',
        { file: req.body.fileId, sets: assigned.jobs },
        `firmware:${req.body.fileId}`,
      );
      return reply.ok(assigned, 'ota.assigned');
    },
  });

  r.get('/ota/job/list', {
    schema: {
      tags,
      summary:
        'The upgrades of a file (fileId; ota:manage) or the upgrade history of a set (token; whoever sees it), ' +
        'newest first, with the spec state, the detailed one, progress and reason',
      querystring: otaJobListRequest,
      response: { 200: envelope(otaJobListResponse) },
    },
    config: { fieldLabels: { fileId: 'firmwareFile' }, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok({ list: await ota.jobs(req.session!, req.query, req.lang) }),
  });

  r.post('/ota/job/cancel', {
    schema: {
      tags,
      summary: 'Cancel a set’s upgrade before its download has ended (ota:manage); 409 afterwards',
      body: otaJobCancelRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { fieldLabels: { id: 'upgradeJob' }, access: { permission: Permission.otaManage, scope: 'company' } },
    handler: async (req, reply) => {
      await ota.cancel(req.session!, req.body.id);
      await logged(req, 'log.firmwareCancelled', { job: req.body.id }, `upgrade:${req.body.id}`);
      return reply.ok(null, 'ota.cancelled');
    },
  });

  // The module's download: no signature, no session (a module fetching a file sends neither); the token is the key.
  r.get('/ota/download/:token', {
    schema: {
      tags,
      summary:
        'The firmware file of an upgrade while it downloads, for its module: whole (200) or a byte range (206, ' +
        '`Range: bytes=a-`), so a cut download goes on where it stopped. Plain HTTP statuses: 404 for an unknown ' +
        'or finished upgrade, 416 for a range past the end',
    },
    config: { unsigned: true, access: { public: true } },
    handler: async (req, reply) => {
      const { token } = req.params as { token: string };
      const file = DOWNLOAD_TOKEN.test(token) ? await ota.download(token) : null;
      const info = file ? await stat(file.path).catch(() => null) : null;
      reply.header('cache-control', 'no-store');
      if (!file || !info?.isFile()) return reply.status(404).type('text/plain').send('404');
      const size = info.size;
      reply.header('accept-ranges', 'bytes').header('etag', `"${file.sha256}"`);
      const range = parseRange(req.headers.range, size);
      if (range === 'bad') return reply.status(416).header('content-range', `bytes */${size}`).send();
      if (range === null) {
        return reply.type('application/octet-stream').header('content-length', size).send(createReadStream(file.path));
      }
      return reply
        .status(206)
        .type('application/octet-stream')
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(createReadStream(file.path, { start: range.start, end: range.end }));
    },
  });
}
