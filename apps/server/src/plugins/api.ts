// The HTTP conventions of every /yewu call: request language and time zone, X-Sign and X-Time checks,
// the optional AES body mode, the { code, msg, data } envelope and the translation of every error.
import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  API_BASE,
  encryptionKeyBytes,
  pickLanguage,
  ResultCode,
  SIGN_WINDOW_SECONDS,
  V,
  type Language,
} from '@genset/protocol';
import { AppError, fieldError } from '../lib/errors.ts';
import { translate } from '../i18n/messages.ts';
import type { Config } from '../config.ts';
import { memoize } from '../lib/memo.ts';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    timezone: string;
    /** The call was answered with a success envelope (`reply.ok`). */
    answeredOk: boolean;
  }
  interface FastifyReply {
    /** Sends a success envelope; `msgKey` is translated into the request's language. */
    ok(data?: unknown, msgKey?: string, params?: Record<string, string | number>): FastifyReply;
  }
  interface FastifyContextConfig {
    /** Field labels that differ on this route (e.g. `password` is the old password when changing it). */
    fieldLabels?: Record<string, string>;
    /** Calls that need no X-Sign (documents and files). */
    unsigned?: boolean;
  }
}

interface FieldProblem {
  field: string;
  rule: string;
  params?: Record<string, string | number>;
}

/** Verdicts on time-zone names are kept: asking Intl costs about 35 µs, and every call names one. */
const isValidTimezone = memoize((tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 2000);

function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A NUL character, or half of a surrogate pair standing alone (text no encoding can write). */
const BROKEN_TEXT = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The top-level field whose text holds a NUL character or an unpaired surrogate anywhere inside it, if one does.
 * PostgreSQL cannot store NUL in text (the query fails), SQLite would store it; JSON holding an unpaired
 * surrogate is refused by PostgreSQL when read as JSON (a set's details then broke the home page of its whole
 * company). Neither is text anyone typed, so such a value is refused up front.
 */
function fieldWithBrokenText(value: unknown): string | null {
  if (!value || typeof value !== 'object') return typeof value === 'string' && BROKEN_TEXT.test(value) ? 'body' : null;
  for (const [key, top] of Object.entries(value)) {
    // Walked without recursion: a body may nest thousands of levels deep.
    const stack: unknown[] = [key, top];
    while (stack.length) {
      const v = stack.pop();
      if (typeof v === 'string') {
        if (BROKEN_TEXT.test(v)) return key;
      } else if (v && typeof v === 'object') {
        for (const [k, inner] of Object.entries(v)) stack.push(k, inner);
      }
    }
  }
  return null;
}

/** Where a zod issue came from and which rule it broke, in message keys. */
function problemsFromValidation(
  validation: { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }[],
): FieldProblem[] {
  return validation.map((v) => {
    const field = v.instancePath.replace(/^\//, '').split('/')[0] || 'body';
    if (v.keyword === 'unrecognized_keys') {
      const keys = (v.params.keys as string[] | undefined) ?? [];
      return { field: keys[0] ?? field, rule: 'validation.unknownField' };
    }
    if (v.message?.startsWith('validation.')) return { field, rule: v.message };
    if (v.keyword === 'invalid_type' && /received undefined/.test(v.message ?? ''))
      return { field, rule: 'validation.required' };
    return { field, rule: 'validation.invalid' };
  });
}

export default fp(
  async function apiConventions(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts;
    const aesKey = Buffer.from(encryptionKeyBytes(config.signSecret));

    app.decorateRequest('lang', 'en-US');
    app.decorateRequest('timezone', 'UTC');
    app.decorateRequest('answeredOk', false);
    app.decorateReply('ok', function (this: FastifyReply, data: unknown = null, msgKey = 'ok', params = {}) {
      this.request.answeredOk = true;
      return this.send({ code: ResultCode.ok, msg: translate(this.request.lang, msgKey, params), data });
    });

    const isApi = (req: FastifyRequest) => req.url.startsWith(`${API_BASE}/`) || req.url === API_BASE;
    // The OpenAPI document and its viewer are read by people with a browser: no signature asked.
    const isDocs = (req: FastifyRequest) => req.url.startsWith(`${API_BASE}/docs`);

    // Answers of the API are one person's data: no cache (browser, proxy) keeps them. Files served elsewhere
    // (the console, uploads) keep their own caching.
    app.addHook('onSend', async (req, reply) => {
      if (isApi(req) && !isDocs(req)) reply.header('cache-control', 'no-store');
    });

    app.addHook('onRequest', async (req) => {
      req.lang = pickLanguage(req.headers['accept-language']);
      const tz = req.headers['x-timezone'];
      req.timezone = typeof tz === 'string' && isValidTimezone(tz) ? tz : 'UTC';
      if (!isApi(req) || isDocs(req) || req.routeOptions.config?.unsigned) return;
      const time = String(req.headers['x-time'] ?? '');
      const sign = String(req.headers['x-sign'] ?? '').toLowerCase();
      const token = typeof req.headers['x-token'] === 'string' ? req.headers['x-token'] : '';
      const seconds = Number(time);
      if (!/^\d{9,11}$/.test(time) || Math.abs(Date.now() / 1000 - seconds) > SIGN_WINDOW_SECONDS) {
        throw new AppError(ResultCode.tokenInvalid, 'errors.signInvalid');
      }
      if (!sign || !safeEqual(sign, sha256(`${token}${time}${config.signSecret}`))) {
        throw new AppError(ResultCode.tokenInvalid, 'errors.signInvalid');
      }
    });

    app.addHook('preValidation', async (req) => {
      if (!isApi(req) || !req.body || typeof req.body !== 'object' || Array.isArray(req.body)) return;
      let body = req.body as Record<string, unknown>;
      if (config.encryption === 'aes') {
        if (typeof body.paramStr !== 'string') throw new AppError(ResultCode.invalid, 'errors.invalidBody');
        try {
          const raw = Buffer.from(body.paramStr, 'base64');
          const decipher = createDecipheriv('aes-256-cbc', aesKey, raw.subarray(0, 16));
          const text = Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString('utf8');
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          throw new AppError(ResultCode.invalid, 'errors.invalidBody');
        }
      }
      // The console adds its language and time zone to every body; they are headers in all but name.
      const { language, timezone, ...rest } = body;
      if (typeof language === 'string' && !req.headers['accept-language']) req.lang = pickLanguage(language);
      if (typeof timezone === 'string' && !req.headers['x-timezone'] && isValidTimezone(timezone))
        req.timezone = timezone;
      req.body = rest;
    });

    // After the access gate (a route's preValidation): a caller who may not call the route learns nothing of
    // how its input is judged.
    app.addHook('preHandler', async (req) => {
      if (!isApi(req)) return;
      const field = fieldWithBrokenText(req.params) ?? fieldWithBrokenText(req.query) ?? fieldWithBrokenText(req.body);
      if (field) throw fieldError(field, V.invalid);
    });

    if (config.encryption === 'aes') {
      app.addHook('onSend', async (req, reply, payload) => {
        if (!isApi(req) || typeof payload !== 'string') return payload;
        if (!String(reply.getHeader('content-type') ?? '').includes('application/json')) return payload;
        const iv = randomBytes(16);
        const cipher = createCipheriv('aes-256-cbc', aesKey, iv);
        const enc = Buffer.concat([iv, cipher.update(payload, 'utf8'), cipher.final()]);
        return JSON.stringify({ paramStr: enc.toString('base64') });
      });
    }

    const sendError = (req: FastifyRequest, reply: FastifyReply, code: number, msg: string, data: unknown = null) =>
      reply.status(200).type('application/json; charset=utf-8').send({ code, msg, data });

    const validationReply = (req: FastifyRequest, reply: FastifyReply, problems: FieldProblem[]) => {
      const labels = req.routeOptions.config?.fieldLabels ?? {};
      const fields: Record<string, string> = {};
      for (const p of problems) {
        if (fields[p.field]) continue;
        const label = translate(req.lang, `fields.${labels[p.field] ?? p.field}`);
        fields[p.field] = translate(req.lang, 'errors.validation', {
          field: label.startsWith('fields.') ? p.field : label,
          rule: translate(req.lang, p.rule, p.params),
        });
      }
      const first = Object.values(fields)[0] ?? translate(req.lang, 'errors.invalidBody');
      return sendError(req, reply, ResultCode.invalid, first, { fields });
    };

    app.setErrorHandler((error, req, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        return validationReply(req, reply, problemsFromValidation(error.validation));
      }
      if (error instanceof AppError) {
        const data = error.data as { fieldErrors?: FieldProblem[] } | null;
        if (data?.fieldErrors) return validationReply(req, reply, data.fieldErrors);
        const { params, data: worded } = error.worded?.(req.lang) ?? { params: error.params, data: error.data };
        return sendError(req, reply, error.code, translate(req.lang, error.key, params), worded);
      }
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (status >= 400 && status < 500) {
        // Malformed JSON, wrong content type, oversized body: the caller's fault, said plainly (never with the
        // parser's own words, which may quote the body).
        req.log.info({ err: error }, 'request refused');
        const msg =
          status === 413
            ? translate(req.lang, 'errors.bodyTooLarge', { kb: Math.floor(config.bodyLimitBytes / 1024) })
            : translate(req.lang, status === 404 ? 'errors.notFound' : 'errors.invalidBody');
        if (!isApi(req)) return reply.status(status).send({ code: status, msg, data: null });
        return sendError(req, reply, status === 404 ? ResultCode.notFound : ResultCode.invalid, msg);
      }
      // Details (stack, SQL, paths) go to the log only; the caller gets the request id to quote.
      req.log.error({ err: error }, 'unexpected error');
      return sendError(req, reply, ResultCode.error, translate(req.lang, 'errors.internal', { id: req.id }));
    });

    app.setNotFoundHandler((req, reply) => {
      if (isApi(req)) return sendError(req, reply, ResultCode.notFound, translate(req.lang, 'errors.notFound'));
      return reply.status(404).send({ code: 404, msg: 'Not found', data: null });
    });
  },
  { name: 'api-conventions' },
);
