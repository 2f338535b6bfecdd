// Shared steps of the browser tests: signed calls to the real server, the development outbox, fresh
// accounts, and signing in through the page or by cookie.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { computeSign, DEFAULT_SIGN_SECRET, type Envelope, type LoginResponse } from '@genset/protocol';

export const TOKEN_COOKIE = 'Admin-Token';
export const ADMIN = { username: 'admin@example.com', password: 'Admin#2026' };
export const OPERATOR = { username: 'operator@example.com', password: 'Demo#2026' };
export const VIEWER = { username: 'viewer@example.com', password: 'Demo#2026' };
export const PERSONAL = { username: '13800000001', password: 'Demo#2026' };

const secret = process.env.API_SIGN_SECRET ?? DEFAULT_SIGN_SECRET;

export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set');
  return url;
}

function headers(token?: string, language = 'en-US'): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'X-Time': time,
    'X-Sign': computeSign(token, time, secret),
    'X-Timezone': 'Asia/Shanghai',
    'Accept-Language': language,
    ...(token ? { 'X-Token': token } : {}),
  };
}

/** A signed call as the console makes it; returns the envelope. */
export async function api<T = unknown>(
  request: APIRequestContext,
  path: string,
  body?: object,
  token?: string,
): Promise<Envelope<T>> {
  return apiAt(request, baseUrl(), path, body, token);
}

/** The same on a server of a test's own, at `base`. */
export async function apiAt<T = unknown>(
  request: APIRequestContext,
  base: string,
  path: string,
  body?: object,
  token?: string,
): Promise<Envelope<T>> {
  const url = `${base}/yewu${path}`;
  const response = body
    ? await request.post(url, { headers: headers(token), data: body })
    : await request.get(url, { headers: headers(token) });
  expect(response.ok()).toBe(true);
  return (await response.json()) as Envelope<T>;
}

export async function apiLogin(request: APIRequestContext, account: { username: string; password: string }) {
  const result = await api<LoginResponse>(request, '/user/login', account);
  expect(result.code, result.msg).toBe(200);
  return result.data;
}

/** The last code the server wrote to the development outbox for this address and purpose. */
export async function outboxCode(to: string, purpose: string, after = 0): Promise<string> {
  const file = join(process.env.E2E_DATA_DIR ?? '', 'outbox', 'messages.jsonl');
  let code: string | undefined;
  await expect
    .poll(
      () => {
        if (!existsSync(file)) return undefined;
        const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
        const entries = lines.map(
          (l) => JSON.parse(l) as { ts: number | string; to: string; purpose: string; code: string },
        );
        const match = entries
          .filter((e) => e.to === to && e.purpose === purpose && new Date(e.ts).getTime() >= after)
          .at(-1);
        code = match?.code;
        return code;
      },
      { message: `a ${purpose} code for ${to} in the outbox`, timeout: 10_000 },
    )
    .toBeTruthy();
  return code!;
}

let counter = 0;
/** A mobile number no other test uses. */
export function freshMobile(): string {
  counter += 1;
  const tail = `${Date.now() % 1_000_000}${process.pid % 100}${counter}`.padStart(9, '0').slice(-9);
  return `19${tail}`;
}

export const NEW_ACCOUNT_PASSWORD = 'Fresh#2026';

/** Registers a new personal account through the API and returns it signed in. */
export async function registerAccount(request: APIRequestContext, nickname = 'Test user') {
  const username = freshMobile();
  const started = Date.now() - 1000;
  const sent = await api(request, '/sendMessage', { username, purpose: 'register' });
  expect(sent.code, sent.msg).toBe(200);
  const code = await outboxCode(username, 'register', started);
  const result = await api<LoginResponse>(request, '/user/register', {
    username,
    code,
    newPassword: NEW_ACCOUNT_PASSWORD,
    newPasswords: NEW_ACCOUNT_PASSWORD,
    nickname,
    type: 'personal',
  });
  expect(result.code, result.msg).toBe(200);
  return { username, password: NEW_ACCOUNT_PASSWORD, token: result.data.utoken };
}

/** Signs in on a server of a test's own (e2e/own-server.ts); the call's envelope. */
export async function loginAt(
  request: APIRequestContext,
  url: string,
  account: { username: string; password: string },
) {
  const response = await request.post(`${url}/yewu/user/login`, { headers: headers(), data: account });
  return (await response.json()) as Envelope<LoginResponse>;
}

/** Signs in on a server of a test's own and keeps the session in the browser. */
export async function signInAt(page: Page, url: string, account: { username: string; password: string }) {
  const result = await loginAt(page.request, url, account);
  expect(result.code, result.msg).toBe(200);
  await page.context().addCookies([{ name: TOKEN_COOKIE, value: result.data.utoken, url }]);
  return result.data.utoken;
}

/** Puts a session token in the browser as the console would after sign-in. */
export async function useToken(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: TOKEN_COOKIE, value: token, url: baseUrl() }]);
}

/** Signs in by cookie (fast) and opens a page of the shell. */
export async function openSignedIn(page: Page, account: { username: string; password: string }, path = '/index') {
  const login = await apiLogin(page.request, account);
  await useToken(page.context(), login.utoken);
  await page.goto(path);
  return login.utoken;
}

/** Signs in through the form. */
export async function signInWithPassword(page: Page, account: { username: string; password: string }) {
  await page.getByLabel('Mobile number or e-mail').fill(account.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The text of the newest toast. */
/**
 * Picks an option of an Ant Design select: opens it, waits until its list has finished sliding in (a click on
 * a list still moving can be lost), and clicks the visible entry (not its hidden accessibility twin) that
 * reads `option` (exactly, or containing it when `exact` is false).
 */
export async function chooseOption(page: Page, select: Locator, option: string, exact = true) {
  await select.click();
  const settled = page.locator(
    '.ant-select-dropdown:visible:not([class*="-enter"]):not([class*="-appear"]):not([class*="-leave"])',
  );
  const escaped = option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const text = exact ? new RegExp(`^\\s*${escaped}\\s*$`) : option;
  await settled.locator('.ant-select-item-option').filter({ hasText: text }).first().click();
}

/** The first number an element shows: "1,499.5" → 1499.5, "12.0 / 40 kW" → 12. */
export async function firstNumber(element: Locator): Promise<number> {
  const text = (await element.innerText()).replace(/,/g, '');
  return Number(text.match(/-?\d+(\.\d+)?/)?.[0]);
}

/** Whether the page has been loaded again since this was called (live pages must follow without it). */
export function trackReloads(page: Page): () => boolean {
  let reloaded = false;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloaded = true;
  });
  return () => reloaded;
}

export function toast(page: Page) {
  return page.locator('.ant-message-notice').last();
}

/** The account the global setup registered, once its code may be sent again (60 s after the last one). */
export async function spareAccount(): Promise<{ username: string; password: string }> {
  const spare = JSON.parse(process.env.E2E_SPARE_ACCOUNT ?? 'null') as {
    username: string;
    password: string;
    codeSentAt: number;
  } | null;
  if (!spare) throw new Error('E2E_SPARE_ACCOUNT is not set');
  const wait = spare.codeSentAt + 61_000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return spare;
}

/** The token of a demo-fleet set, by name. */
export function demoSetToken(name: string): string {
  const token = (JSON.parse(process.env.E2E_SETS ?? '{}') as Record<string, string>)[name];
  if (!token) throw new Error(`no demo set named ${name}`);
  return token;
}
