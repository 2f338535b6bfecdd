// What the protocol management tests share: a server (with its embedded broker) signed in as the platform
// administrator and as the demo company's manager, a protocol document of a test's own, and helpers to add, find
// and export protocols and to read a refusal's problems.
import { afterAll, beforeAll } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET, layoutS, type ProtocolDocument } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from '../helpers.ts';

export let t: TestApp;
export let admin: string;
export let manager: string;
export let brokerUrl: string;
export let companyId: number;

export const copyOf = <T>(value: T): T => structuredClone(value);
export const indexOfItem = (doc: { items: { key: string }[] }, key: string) =>
  doc.items.findIndex((i) => i.key === key);

/** A small valid protocol of its own, so tests do not depend on each other's edits of the seeds. */
export function sampleDocument(key: string): ProtocolDocument {
  return { ...copyOf(layoutS), key, version: 1 };
}

export async function idOf(key: string, version?: number): Promise<number> {
  const res = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { search: key, size: 50 } });
  const row = res.data.list.find((r: any) => r.key === key && (version === undefined || r.version === version));
  if (!row) throw new Error(`no protocol ${key} v${version}`);
  return row.id;
}

export async function exportOf(id: number, token = admin) {
  const time = String(Math.floor(Date.now() / 1000));
  return t.app.inject({
    method: 'GET',
    url: `/yewu/protocol/export/${id}`,
    headers: { 'x-time': time, 'x-token': token, 'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET) },
  });
}

export const add = (document: unknown, lang?: string) =>
  call(t.app, 'POST', '/protocol/add', { token: admin, lang, body: { document } });

/** The places and messages of a refusal's problems (each also carries its rule and params). */
export const told = (problems: { path: string; message: string }[]) =>
  problems.map(({ path, message }) => ({ path, message }));

/** Starts the server before the file's tests, and closes it after them. */
export function useProtocolServer() {
  beforeAll(async () => {
    t = await createTestApp({ ONLINE_RATE_MS: '500', OFFLINE_RATE_MS: '2000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
    admin = await login(t.app, 'admin@example.com', 'Admin#2026');
    manager = await login(t.app, 'manager@example.com', 'Demo#2026');
    companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  });
  afterAll(async () => t.close());
}
