// Security headers on every answer, and the policy following the configuration: who may frame the console
// (iframe=1 embedding) and where the realtime channel is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const directives = (csp: string | undefined) =>
  Object.fromEntries((csp ?? '').split(';').map((d) => [d.trim().split(' ')[0], d.trim().split(' ').slice(1)]));

describe('security headers by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it.each(['/yewu/user/info', '/yewu/docs', '/no/such/page', '/uploads/nothing.png'])('are on %s', async (url) => {
    const res = await t.app.inject({ url });
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['upgrade-insecure-requests']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});

describe('security headers of a console framed by a portal, with realtime on another host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      FRAME_ANCESTORS: "'self' https://portal.example.com",
      PUBLIC_WS_URL: 'wss://realtime.example.com/ws',
    });
  });
  afterAll(async () => t.close());

  it('lets the portal frame the console and the console reach the realtime host', async () => {
    const res = await t.app.inject({ url: '/index' });
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp['frame-ancestors']).toEqual(["'self'", 'https://portal.example.com']);
    expect(csp['connect-src']).toEqual(["'self'", 'wss://realtime.example.com']);
    // X-Frame-Options cannot name the portal: left out, frame-ancestors decides
    expect(res.headers['x-frame-options']).toBeUndefined();
  });
});

it('refuses a FRAME_ANCESTORS that is not a list of sources', () => {
  expect(() => loadConfig({ FRAME_ANCESTORS: "'self'; script-src *" })).toThrow(/FRAME_ANCESTORS/);
  expect(loadConfig({ FRAME_ANCESTORS: '*' }).frameAncestors).toEqual(['*']);
});
