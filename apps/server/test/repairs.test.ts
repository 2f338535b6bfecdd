// Repair requests through the API: a request with pictures (kept under random names, with thumbnails, given
// only to those who may see the request), the requester's list and the company's service queue, the state flow
// with its notes and refused steps, and every refused form (a program named .jpg, a picture over the limit, a
// 50 MB upload, too many pictures, bad fields, a set not theirs) answered in the caller's language with nothing
// stored: no row, no file.
import { createDecipheriv, createCipheriv, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET, encryptionKeyBytes, REPAIR_PICTURE_BYTES_MAX } from '@genset/protocol';
import type { RepairEvent } from '../src/modules/repairs/service.ts';
import { translate } from '../src/i18n/messages.ts';
import { call, createCompany, createTestApp, freshUser, login, type Envelope, type TestApp } from './helpers.ts';
import { newSet } from './support/history-data.ts';

let t: TestApp;
let manager: string;
let operator: string;
let viewer: string;
let personal: string;
let foreigner: string;
let setToken: string;
let foreignSetToken: string;
let jpeg: Buffer;
let png: Buffer;
const events: RepairEvent[] = [];

const BOUNDARY = 'RepairFormBoundary7MA4YWxkTrZu0gW';

interface FilePart {
  name?: string;
  filename: string;
  type: string;
  data: Buffer;
}

function fieldPart(name: string, value: string) {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}
function fileHead(f: Omit<FilePart, 'data'>) {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${f.name ?? 'pictures'}"; filename="${f.filename}"\r\n` +
      `Content-Type: ${f.type}\r\n\r\n`,
  );
}
const END = Buffer.from(`--${BOUNDARY}--\r\n`);

function formBody(fields: Record<string, string>, files: FilePart[]): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(fieldPart(k, v));
  for (const f of files) parts.push(fileHead(f), f.data, Buffer.from('\r\n'));
  parts.push(END);
  return Buffer.concat(parts);
}

function signed(token: string | undefined, lang = 'en-US') {
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'x-time': time,
    'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
    'accept-language': lang,
    ...(token ? { 'x-token': token } : {}),
  };
}

async function upload(
  token: string | undefined,
  body: Buffer | Readable,
  o: { lang?: string; headers?: Record<string, string> } = {},
): Promise<Envelope> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/yewu/baoxiu/add',
    headers: {
      ...signed(token, o.lang),
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...o.headers,
    },
    payload: body,
  });
  return res.json() as Envelope;
}

const goodFields = (over: Record<string, string> = {}) => ({
  token: setToken,
  contact: 'Pat Personal',
  phone: '+86 138 0000 0001',
  address: 'Building 4, Harbour Road 12',
  description: 'The set stops after two minutes with a low oil pressure alarm.',
  ...over,
});

async function rowCount() {
  const r = await t.app.database.db
    .selectFrom('repair_request')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

const repairsDir = () => join(t.config.uploadsDir, 'repairs');
async function storedFiles() {
  const kept = (await readdir(repairsDir())).filter((f) => f !== '.incoming');
  const incoming = await readdir(join(repairsDir(), '.incoming'));
  return { kept, incoming };
}

/** Runs a refused upload and checks that it left no row and no file behind. */
async function refusedWithNothingStored(run: () => Promise<Envelope>) {
  const rowsBefore = await rowCount();
  const filesBefore = await storedFiles();
  const res = await run();
  expect(res.code, res.msg).toBe(400);
  expect(await rowCount()).toBe(rowsBefore);
  const filesAfter = await storedFiles();
  expect(filesAfter.kept.sort()).toEqual(filesBefore.kept.sort());
  expect(filesAfter.incoming).toEqual([]);
  return res;
}

async function picture(token: string | undefined, request: string, name: string, thumb = false) {
  return t.app.inject({
    method: 'GET',
    url: '/yewu/baoxiu/picture',
    query: { token: request, name, thumb: thumb ? '1' : '0' },
    headers: signed(token),
  });
}

const update = (token: string, body: object, lang = 'en-US') =>
  call(t.app, 'POST', '/baoxiu/update', { token, body, lang });
const detail = (token: string, request: string) =>
  call(t.app, 'GET', '/baoxiu/detail', { token, query: { token: request } });

beforeAll(async () => {
  t = await createTestApp();
  t.app.repairs.setEventListener((e) => {
    events.push(e);
  });
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  operator = await login(t.app, 'operator@example.com', 'Demo#2026');
  viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
  personal = await login(t.app, '13800000001', 'Demo#2026');
  const db = t.app.database.db;
  const companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId as number;
  const managerId = (
    await db.selectFrom('users').select('id').where('account', '=', 'manager@example.com').executeTakeFirstOrThrow()
  ).id;
  const personalId = (
    await db.selectFrom('users').select('id').where('account', '=', '13800000001').executeTakeFirstOrThrow()
  ).id;
  const set = await newSet(t, { companyId, ownerUserId: managerId, name: 'Harbour set' });
  setToken = set.token;
  await t.app.devices.fleet.subscribe(set.id, personalId, 'view');
  const other = await createCompany(t, 'Other Service Ltd');
  const outsider = await freshUser(t, { companyId: other, role: 'companyAdmin' });
  foreigner = await login(t.app, outsider.account, outsider.password);
  foreignSetToken = (await newSet(t, { companyId: other, name: 'Foreign set' })).token;
  jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#c03020' } })
    .jpeg()
    .toBuffer();
  png = await sharp({ create: { width: 640, height: 1000, channels: 4, background: '#2060c0' } })
    .png()
    .toBuffer();
});
afterAll(async () => t.close());

let requestToken = '';

describe('submitting a repair request', () => {
  it('keeps the request with its pictures under random names, each with a thumbnail of at most 320 px', async () => {
    const res = await upload(
      personal,
      formBody(goodFields(), [
        { filename: 'oil.jpg', type: 'image/jpeg', data: jpeg },
        { filename: 'panel.png', type: 'image/png', data: png },
      ]),
    );
    expect(res.code, res.msg).toBe(200);
    expect(res.msg).toBe('Repair request sent.');
    requestToken = res.data.token;
    expect(requestToken).toMatch(/^[A-Za-z0-9_-]{16}$/);

    const d = await detail(personal, requestToken);
    expect(d.code, d.msg).toBe(200);
    expect(d.data).toMatchObject({
      setToken,
      setName: 'Harbour set',
      requester: 'Pat Personal',
      contact: 'Pat Personal',
      phone: '+86 138 0000 0001',
      state: 'submitted',
      pictures: 2,
      service: false,
      next: [],
    });
    expect(d.data.history).toEqual([{ state: 'submitted', note: '', by: 'Pat Personal', at: expect.any(Number) }]);
    const names = d.data.pictureList.map((p: { name: string }) => p.name);
    expect(d.data.pictureList.map((p: { type: string }) => p.type)).toEqual(['image/jpeg', 'image/png']);

    const { kept } = await storedFiles();
    for (const [i, name] of names.entries()) {
      expect(name).toMatch(/^[a-f0-9]{32}$/);
      expect(kept).toContain(`${name}.${i === 0 ? 'jpg' : 'png'}`);
      expect(kept).toContain(`${name}.thumb.jpg`);
      const meta = await sharp(join(repairsDir(), `${name}.thumb.jpg`)).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width!, meta.height!)).toBe(320);
    }
    // the names sent are not kept anywhere
    expect(kept.some((f) => f.includes('oil') || f.includes('panel'))).toBe(false);

    expect(events.at(-1)).toMatchObject({ kind: 'repair.submitted', state: 'submitted', gensetName: 'Harbour set' });
  });

  it('gives the pictures and thumbnails to the requester and the service side only', async () => {
    const d = await detail(personal, requestToken);
    const [first] = d.data.pictureList as { name: string }[];
    const full = await picture(personal, requestToken, first!.name);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/jpeg');
    expect(full.rawPayload.equals(jpeg)).toBe(true);
    const thumb = await picture(manager, requestToken, first!.name, true);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(320);

    // someone of the company without the service permission, another company, nobody signed in
    expect((await picture(viewer, requestToken, first!.name)).json().code).toBe(404);
    expect((await picture(foreigner, requestToken, first!.name, true)).json().code).toBe(404);
    expect((await picture(undefined, requestToken, first!.name)).json().code).toBe(101);
    // a picture of another request is not reachable through this one
    expect((await picture(personal, requestToken, 'f'.repeat(32))).json().code).toBe(404);
    // nor as a static file
    const direct = await t.app.inject({ method: 'GET', url: `/uploads/repairs/${first!.name}.jpg` });
    expect(direct.statusCode).toBe(404);
    const thumbDirect = await t.app.inject({ method: 'GET', url: `/uploads/REPAIRS/${first!.name}.thumb.jpg` });
    expect(thumbDirect.statusCode).toBe(404);
  });

  it('lists the request for its requester and in the queue of the set’s company only', async () => {
    const mine = await call(t.app, 'GET', '/baoxiu/my', { token: personal });
    expect(mine.code, mine.msg).toBe(200);
    expect(mine.data.list.map((r: { token: string }) => r.token)).toContain(requestToken);
    expect(mine.data).toMatchObject({ page: 1, size: 20 });

    for (const staff of [manager, operator]) {
      const queue = await call(t.app, 'GET', '/baoxiu/list', {
        token: staff,
        query: { state: 'submitted', size: '10' },
      });
      expect(queue.code, queue.msg).toBe(200);
      expect(queue.data.list.map((r: { token: string }) => r.token)).toContain(requestToken);
      expect(queue.data.size).toBe(10);
      const done = await call(t.app, 'GET', '/baoxiu/list', { token: staff, query: { state: 'done' } });
      expect(done.data.list).toEqual([]);
    }
    expect((await call(t.app, 'GET', '/baoxiu/my', { token: manager })).data.list).toEqual([]);

    // no service permission: the queue is refused, in the caller's language
    for (const [token, lang] of [
      [personal, 'en-US'],
      [viewer, 'ru-RU'],
    ] as const) {
      const refused = await call(t.app, 'GET', '/baoxiu/list', { token, lang });
      expect(refused.code).toBe(403);
      expect(refused.msg).toBe(translate(lang, 'errors.forbidden'));
    }
    // another company's administrator has a queue, without this request
    const foreign = await call(t.app, 'GET', '/baoxiu/list', { token: foreigner });
    expect(foreign.code).toBe(200);
    expect(foreign.data.list).toEqual([]);
    expect((await detail(foreigner, requestToken)).code).toBe(404);
    expect((await detail(viewer, requestToken)).code).toBe(404);

    const bad = await call(t.app, 'GET', '/baoxiu/my', { token: personal, query: { size: '7' } });
    expect(bad.code).toBe(400);
  });
});

describe('the state of a request', () => {
  it('moves submitted → accepted → in progress → done with notes the requester follows', async () => {
    const asManager = await detail(manager, requestToken);
    expect(asManager.data).toMatchObject({ service: true, next: ['accepted', 'rejected'] });

    // the requester cannot move it
    expect((await update(personal, { token: requestToken, state: 'accepted' })).code).toBe(403);
    // nor can another company
    expect((await update(foreigner, { token: requestToken, state: 'accepted' })).code).toBe(404);

    // a step out of order is a conflict, said in the caller's language
    const skip = await update(manager, { token: requestToken, state: 'done' }, 'es-ES');
    expect(skip.code).toBe(409);
    expect(skip.msg).toBe('Una solicitud en estado «Enviada» no puede pasar a «Terminada».');

    let res = await update(manager, { token: requestToken, state: 'accepted', note: 'Technician booked for Monday' });
    expect(res.code, res.msg).toBe(200);
    expect(res.msg).toBe('Repair request updated.');
    expect(events.at(-1)).toMatchObject({ kind: 'repair.state', state: 'accepted', requesterId: expect.any(Number) });

    res = await update(operator, { token: requestToken, state: 'in_progress', note: 'On site' });
    expect(res.code, res.msg).toBe(200);

    // rejecting needs a note
    const noNote = await update(manager, { token: requestToken, state: 'rejected' }, 'zh-CN');
    expect(noNote.code).toBe(400);
    expect(noNote.data.fields.note).toBe(
      translate('zh-CN', 'errors.validation', {
        field: translate('zh-CN', 'fields.repairNote'),
        rule: translate('zh-CN', 'validation.rejectNote'),
      }),
    );

    // a listener that fails does not fail the step
    t.app.repairs.setEventListener(() => {
      throw new Error('listener down');
    });
    res = await update(operator, { token: requestToken, state: 'done', note: 'Oil pump replaced' });
    expect(res.code, res.msg).toBe(200);
    t.app.repairs.setEventListener((e) => {
      events.push(e);
    });

    // done is final
    const again = await update(manager, { token: requestToken, state: 'rejected', note: 'Too late' });
    expect(again.code).toBe(409);

    const d = await detail(personal, requestToken);
    expect(d.data.state).toBe('done');
    expect(d.data.history.map((h: { state: string; note: string; by: string }) => [h.state, h.note, h.by])).toEqual([
      ['submitted', '', 'Pat Personal'],
      ['accepted', 'Technician booked for Monday', 'Mia Manager'],
      ['in_progress', 'On site', 'Oscar Operator'],
      ['done', 'Oil pump replaced', 'Oscar Operator'],
    ]);
    expect((await detail(manager, requestToken)).data.next).toEqual([]);

    const log = await t.app.database.db
      .selectFrom('operation_log')
      .select(['matter', 'account'])
      .where('target', '=', setToken)
      .where('matter', 'like', 'log.repair%')
      .orderBy('id')
      .execute();
    expect(log.map((l) => l.matter)).toEqual([
      'log.repairSubmitted',
      'log.repairAccepted',
      'log.repairInProgress',
      'log.repairDone',
    ]);
  });

  it('can be rejected with a note before it is done', async () => {
    const res = await upload(personal, formBody(goodFields({ description: 'Battery flat' }), []));
    expect(res.code, res.msg).toBe(200);
    const rejected = await update(manager, { token: res.data.token, state: 'rejected', note: 'Not covered' });
    expect(rejected.code, rejected.msg).toBe(200);
    const d = await detail(personal, res.data.token);
    expect(d.data.state).toBe('rejected');
    expect(d.data.history.at(-1)).toMatchObject({ state: 'rejected', note: 'Not covered', by: 'Mia Manager' });
    const list = await call(t.app, 'GET', '/baoxiu/my', { token: personal, query: { state: 'rejected' } });
    expect(list.data.list.map((r: { token: string }) => r.token)).toEqual([res.data.token]);
  });
});

describe('refused forms store nothing', () => {
  it('a program renamed .jpg, in the caller’s language', async () => {
    const program = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(40_000)]);
    for (const lang of ['en-US', 'tr-TR']) {
      const res = await refusedWithNothingStored(() =>
        upload(
          personal,
          formBody(goodFields(), [
            { filename: 'ok.jpg', type: 'image/jpeg', data: jpeg },
            { filename: 'holiday.jpg', type: 'image/jpeg', data: program },
          ]),
          { lang },
        ),
      );
      expect(res.msg).toBe(translate(lang as 'en-US', 'repairs.notPicture', { name: 'holiday.jpg' }));
    }
  });

  it('a file that starts like a JPEG but is not a picture', async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(5000)]);
    const res = await refusedWithNothingStored(() =>
      upload(personal, formBody(goodFields(), [{ filename: 'x.jpg', type: 'image/jpeg', data: fake }])),
    );
    expect(res.msg).toBe(translate('en-US', 'repairs.pictureUnreadable'));
  });

  it('a picture over the size limit', async () => {
    const big = Buffer.concat([jpeg, Buffer.alloc(REPAIR_PICTURE_BYTES_MAX)]);
    const res = await refusedWithNothingStored(() =>
      upload(personal, formBody(goodFields(), [{ filename: 'big.jpg', type: 'image/jpeg', data: big }]), {
        lang: 'zh-CN',
      }),
    );
    expect(res.msg).toBe('每张图片不能超过 10 MB。');
  });

  /** A form with one picture of `total` bytes (a JPEG followed by zeros), made as it is sent. */
  function hugeForm(total: number) {
    let sent = 0;
    let phase: 'head' | 'file' | 'end' | 'done' = 'head';
    const head = Buffer.concat([
      ...Object.entries(goodFields()).map(([k, v]) => fieldPart(k, v)),
      fileHead({ filename: 'huge.jpg', type: 'image/jpeg' }),
      jpeg,
    ]);
    const tail = Buffer.concat([Buffer.from('\r\n'), END]);
    const stream = new Readable({
      read() {
        if (phase === 'head') {
          phase = 'file';
          this.push(head);
        } else if (phase === 'file') {
          const chunk = Buffer.alloc(Math.min(1024 * 1024, total - sent));
          sent += chunk.length;
          this.push(chunk);
          if (sent >= total) phase = 'end';
        } else if (phase === 'end') {
          phase = 'done';
          this.push(tail);
        } else this.push(null);
      },
    });
    return { stream, length: head.length + total + tail.length };
  }

  it('a 50 MB picture: cut at the limit while it streams, never held in memory', async () => {
    for (const declared of [true, false]) {
      const { stream, length } = hugeForm(50 * 1024 * 1024);
      const heapBefore = process.memoryUsage().heapUsed;
      const res = await refusedWithNothingStored(() =>
        upload(personal, stream, { lang: 'ru-RU', headers: declared ? { 'content-length': String(length) } : {} }),
      );
      expect(res.msg).toBe('Фотография может занимать не более 10 МБ.');
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(30 * 1024 * 1024);
      stream.destroy();
    }
  });

  it('a form declared larger than six full pictures: refused before it is read', async () => {
    const { stream, length } = hugeForm(70 * 1024 * 1024);
    const res = await refusedWithNothingStored(() =>
      upload(personal, stream, { lang: 'tr-TR', headers: { 'content-length': String(length) } }),
    );
    expect(res.msg).toBe(translate('tr-TR', 'repairs.tooLarge', { max: 6, mb: 10 }));
    stream.destroy();
  });

  it('more than six pictures', async () => {
    const files = Array.from({ length: 7 }, (_, i) => ({ filename: `p${i}.jpg`, type: 'image/jpeg', data: jpeg }));
    const res = await refusedWithNothingStored(() =>
      upload(personal, formBody(goodFields(), files), { lang: 'es-ES' }),
    );
    expect(res.msg).toBe('Una solicitud de reparación puede llevar como máximo 6 fotos.');
  });

  it('missing and bad fields, with the pictures sent', async () => {
    const { phone: _phone, ...noPhone } = goodFields();
    const res = await refusedWithNothingStored(() =>
      upload(personal, formBody({ ...noPhone, contact: '' }, [{ filename: 'a.jpg', type: 'image/jpeg', data: jpeg }])),
    );
    const rule = translate('en-US', 'validation.required');
    expect(res.data.fields).toEqual({
      contact: translate('en-US', 'errors.validation', { field: 'Contact', rule }),
      phone: translate('en-US', 'errors.validation', { field: 'Contact phone', rule }),
    });
    const badPhone = await refusedWithNothingStored(() =>
      upload(
        personal,
        formBody(goodFields({ phone: 'call me' }), [{ filename: 'a.jpg', type: 'image/jpeg', data: jpeg }]),
      ),
    );
    expect(badPhone.data.fields.phone).toBe(
      translate('en-US', 'errors.validation', { field: 'Contact phone', rule: translate('en-US', 'validation.phone') }),
    );
    const unknown = await refusedWithNothingStored(() =>
      upload(personal, formBody(goodFields({ priority: 'high' }), [])),
    );
    expect(unknown.data.fields.priority).toBeDefined();
  });

  it('a set the caller does not see, and a JSON body', async () => {
    const rows = await rowCount();
    const res = await upload(
      personal,
      formBody(goodFields({ token: foreignSetToken }), [{ filename: 'a.jpg', type: 'image/jpeg', data: jpeg }]),
    );
    expect(res.code).toBe(404);
    expect(await rowCount()).toBe(rows);
    expect((await storedFiles()).incoming).toEqual([]);
    const json = await call(t.app, 'POST', '/baoxiu/add', { token: personal, body: goodFields() });
    expect(json.code).toBe(400);
    expect(json.msg).toBe(translate('en-US', 'repairs.multipartRequired'));
    expect(await rowCount()).toBe(rows);
  });

  it('nothing of the refused forms is left in the folder', async () => {
    const { kept, incoming } = await storedFiles();
    // the first request's two pictures and their thumbnails only
    expect(kept).toHaveLength(4);
    expect(incoming).toEqual([]);
    expect(existsSync(join(repairsDir(), '.incoming'))).toBe(true);
  });
});

describe('with body encryption on', () => {
  it('takes the form as multipart (not encrypted) and answers encrypted, as every call', async () => {
    const aes = await createTestApp({ API_ENCRYPTION: 'aes' });
    try {
      const key = Buffer.from(encryptionKeyBytes(DEFAULT_SIGN_SECRET));
      const encrypt = (obj: unknown) => {
        const iv = randomBytes(16);
        const c = createCipheriv('aes-256-cbc', key, iv);
        return Buffer.concat([iv, c.update(JSON.stringify(obj), 'utf8'), c.final()]).toString('base64');
      };
      const decrypt = (answer: unknown) => {
        const raw = Buffer.from((answer as { paramStr: string }).paramStr, 'base64');
        const d = createDecipheriv('aes-256-cbc', key, raw.subarray(0, 16));
        return JSON.parse(Buffer.concat([d.update(raw.subarray(16)), d.final()]).toString('utf8')) as Envelope;
      };
      const signIn = decrypt(
        await call(aes.app, 'POST', '/user/login', {
          body: { paramStr: encrypt({ username: 'manager@example.com', password: 'Demo#2026' }) },
        }),
      );
      const token = signIn.data.utoken as string;
      const db = aes.app.database.db;
      const manager = await db
        .selectFrom('users')
        .select(['id', 'company_id'])
        .where('account', '=', 'manager@example.com')
        .executeTakeFirstOrThrow();
      const set = await newSet(aes, { companyId: manager.company_id, ownerUserId: manager.id, name: 'Sealed set' });
      const res = await aes.app.inject({
        method: 'POST',
        url: '/yewu/baoxiu/add',
        headers: { ...signed(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: formBody(goodFields({ token: set.token }), [{ filename: 'a.jpg', type: 'image/jpeg', data: jpeg }]),
      });
      const added = decrypt(res.json());
      expect(added.code, added.msg).toBe(200);
      const detail = decrypt(
        await call(aes.app, 'GET', '/baoxiu/detail', { token, query: { token: added.data.token } }),
      );
      const name = detail.data.pictureList[0].name as string;
      const picture = await aes.app.inject({
        method: 'GET',
        url: '/yewu/baoxiu/picture',
        query: { token: added.data.token, name },
        headers: signed(token),
      });
      expect(picture.headers['content-type']).toBe('image/jpeg');
      expect(picture.rawPayload.equals(jpeg)).toBe(true);
    } finally {
      await aes.close();
    }
  });
});
