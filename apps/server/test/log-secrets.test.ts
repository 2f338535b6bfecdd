// The check the browser tests run on their server's log when they end (e2e/log-secrets.ts): it finds a session
// token, an embedding code, a video lease and a key-like query value of the run in log text, and finds none in what
// the server itself logs of requests that carry them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretsInLog } from '../../../e2e/log-secrets.ts';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp(
    {},
    { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } },
  );
});
afterAll(async () => t?.close());

describe('the browser run’s log check', () => {
  it('finds a session token, an embedding code, a lease and a key-like query value', async () => {
    const token = await login(t.app, 'manager@example.com', 'Demo#2026');
    const embed = await call(t.app, 'POST', '/user/embedCode', { token });
    const code = embed.data.code as string;
    const other = 'A'.repeat(43); // token-shaped, but no session's
    const text = [
      `{"msg":"incoming request","req":{"url":"/yewu/x"}} ${other}`,
      `{"msg":"a line","token":"${token}"}`,
      `{"req":{"url":"/index.html?iframe=1&code=${code}"}}`,
      `{"req":{"url":"/yewu/video/live/Zm9vYmFyYmF6cXV4cXV1eHF1dXg/index.m3u8"}}`,
      `{"req":{"url":"/yewu/video/live/[redacted]/index.m3u8?yuntoken=[redacted]"}}`,
    ].join('\n');
    const found = await secretsInLog(text, t.app.database.db);
    expect(found.map((f) => [f.line, f.what.split(' ')[0]])).toEqual([
      [2, 'session'],
      [3, 'query'],
      [3, 'embedding'],
      [4, 'video'],
    ]);
    // nothing of the secret itself is repeated whole
    expect(JSON.stringify(found)).not.toContain(token);
  });

  it('finds nothing in the server’s own log of requests that carry a token, a code and a lease', async () => {
    const token = await login(t.app, 'manager@example.com', 'Demo#2026');
    const embed = await call(t.app, 'POST', '/user/embedCode', { token });
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: `/index.html?iframe=1&yuntoken=${token}&code=${embed.data.code}` });
    await t.app.inject({
      method: 'GET',
      url: `/yewu/video/live/Zm9vYmFyYmF6cXV4cXV1eHF1dXg/index.m3u8?utoken=${token}`,
    });
    expect(lines.length).toBeGreaterThan(0);
    expect(await secretsInLog(lines.join(''), t.app.database.db)).toEqual([]);
  });
});
