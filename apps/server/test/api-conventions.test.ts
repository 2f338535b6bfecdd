// The conventions every call follows: signing, time window, envelope, languages, AES bodies, OpenAPI.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET, encryptionKeyBytes } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { loadConfig } from '../src/config.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('X-Sign and X-Time', () => {
  it('refuses a call without a signature with 50008 in the caller’s language', async () => {
    const en = await call(t.app, 'GET', '/company/getName', { sign: null });
    expect(en.code).toBe(50008);
    expect(en.msg).toMatch(/signature/i);
    const zh = await call(t.app, 'GET', '/company/getName', { sign: null, lang: 'zh-CN' });
    expect(zh.code).toBe(50008);
    expect(zh.msg).toContain('签名');
  });

  it('refuses a wrong signature and a signature made for another token', async () => {
    expect((await call(t.app, 'GET', '/company/getName', { sign: 'ab'.repeat(32) })).code).toBe(50008);
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const time = String(Math.floor(Date.now() / 1000));
    const signedWithoutToken = computeSign('', time, DEFAULT_SIGN_SECRET);
    const res = await t.app.inject({
      method: 'GET',
      url: '/yewu/user/info',
      headers: { 'x-token': token, 'x-time': time, 'x-sign': signedWithoutToken },
    });
    expect(res.json().code).toBe(50008);
  });

  it('refuses a request more than five minutes old or ahead', async () => {
    expect((await call(t.app, 'GET', '/company/getName', { skew: -301 })).code).toBe(50008);
    expect((await call(t.app, 'GET', '/company/getName', { skew: 301 })).code).toBe(50008);
    expect((await call(t.app, 'GET', '/company/getName', { skew: -200 })).code).toBe(200);
  });
});

describe('envelope and languages', () => {
  it('answers unknown calls with 404 in the envelope', async () => {
    const res = await call(t.app, 'POST', '/no/such/call', { body: {} });
    expect(res).toMatchObject({ code: 404, data: null });
  });

  it('speaks each of the six languages, falling back to English', async () => {
    const msgs: Record<string, string> = {};
    for (const lang of ['en-US', 'zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR', 'de-DE']) {
      msgs[lang] = (
        await call(t.app, 'POST', '/user/login', {
          lang,
          body: { username: `nobody-${lang}@example.com`, password: 'x' },
        })
      ).msg;
    }
    expect(msgs['en-US']).toBe('Wrong account or password.');
    expect(msgs['zh-CN']).toBe('账号或密码错误。');
    expect(msgs['zh-TW']).toBe('帳號或密碼錯誤。');
    expect(msgs['ru-RU']).toBe('Неверная учётная запись или пароль.');
    expect(msgs['es-ES']).toBe('Cuenta o contraseña incorrecta.');
    expect(msgs['tr-TR']).toBe('Hesap veya parola hatalı.');
    expect(msgs['de-DE']).toBe(msgs['en-US']);
  });

  it('takes language and timezone from the body the console adds them to, and ignores them as fields', async () => {
    const time = String(Math.floor(Date.now() / 1000));
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/user/login',
      headers: { 'x-time': time, 'x-sign': computeSign('', time, DEFAULT_SIGN_SECRET) },
      payload: { username: 'nobody-body@example.com', password: 'x', language: 'ru-RU', timezone: 'Asia/Shanghai' },
    });
    expect(res.json().msg).toBe('Неверная учётная запись или пароль.');
  });

  it('answers malformed JSON with a clear 400 and changes nothing', async () => {
    const time = String(Math.floor(Date.now() / 1000));
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/user/login',
      headers: {
        'x-time': time,
        'x-sign': computeSign('', time, DEFAULT_SIGN_SECRET),
        'content-type': 'application/json',
      },
      payload: '{"username": ',
    });
    expect(res.json()).toMatchObject({ code: 400, msg: 'The request could not be read.' });
  });
});

describe('configuration', () => {
  it('names each invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', API_ENCRYPTION: 'rot13' })).toThrow(/PORT[\s\S]*API_ENCRYPTION/);
  });
  it('has working defaults for the embedded setup', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toMatch(/data[/\\]console\.db$/);
    expect(c.demo).toBe(true);
  });
});

describe('OpenAPI document', () => {
  it('lists every call with its request and response schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/yewu/docs/json' })).json();
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/yewu/user/login',
      '/yewu/sendMessage',
      '/yewu/user/codelogin',
      '/yewu/logout',
      '/yewu/user/info',
      '/yewu/getRoute',
      '/yewu/user/password',
      '/yewu/user/register',
      '/yewu/user/forgetPassword',
      '/yewu/user/delUser',
      '/yewu/company/getName',
      '/yewu/company/getlogo',
      '/yewu/company/getinfo/{id}',
    ]) {
      expect(paths).toContain(p);
      const op = doc.paths[p].post ?? doc.paths[p].get;
      expect(op.responses['200'].content['application/json'].schema).toBeTruthy();
    }
    const login = doc.paths['/yewu/user/login'].post.requestBody.content['application/json'].schema;
    expect(login.required).toEqual(expect.arrayContaining(['username', 'password']));
    const ui = await t.app.inject({ method: 'GET', url: '/yewu/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});

describe('AES body mode', () => {
  let aes: TestApp;
  beforeAll(async () => {
    aes = await createTestApp({ API_ENCRYPTION: 'aes' });
  });
  afterAll(async () => aes.close());

  const key = Buffer.from(encryptionKeyBytes(DEFAULT_SIGN_SECRET));
  const encrypt = (obj: unknown) => {
    const iv = randomBytes(16);
    const c = createCipheriv('aes-256-cbc', key, iv);
    return Buffer.concat([iv, c.update(JSON.stringify(obj), 'utf8'), c.final()]).toString('base64');
  };
  const decrypt = (b64: string) => {
    const raw = Buffer.from(b64, 'base64');
    const d = createDecipheriv('aes-256-cbc', key, raw.subarray(0, 16));
    return JSON.parse(Buffer.concat([d.update(raw.subarray(16)), d.final()]).toString('utf8'));
  };

  it('reads encrypted bodies and answers encrypted', async () => {
    const res = await call(aes.app, 'POST', '/user/login', {
      body: { paramStr: encrypt({ username: 'viewer@example.com', password: 'Demo#2026' }) },
    });
    expect(res).toHaveProperty('paramStr');
    const plain = decrypt((res as unknown as { paramStr: string }).paramStr);
    expect(plain.code).toBe(200);
    expect(plain.data.utoken).toHaveLength(43);
  });

  it('refuses a plain body when encryption is on', async () => {
    const res = await call(aes.app, 'POST', '/user/login', {
      body: { username: 'viewer@example.com', password: 'Demo#2026' },
    });
    expect(decrypt((res as unknown as { paramStr: string }).paramStr).code).toBe(400);
  });
});
