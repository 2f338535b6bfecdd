import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { initI18n } from '../i18n/index.ts';
import { useSession } from '../stores/session.ts';
import { setFeedback } from './feedback.ts';
import { ApiError, request, TransportError } from './request.ts';

const message = { error: vi.fn(), success: vi.fn() };
const modal = { confirm: vi.fn() };
const assign = vi.fn();
const reload = vi.fn();

type Call = { url: string; init: RequestInit };
let calls: Call[] = [];

function answer(body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
}

beforeAll(async () => {
  await initI18n('en-US');
});

beforeEach(() => {
  calls = [];
  vi.stubGlobal('window', { location: { assign, reload } });
  setFeedback({ message, modal } as unknown as Parameters<typeof setFeedback>[0]);
  useSession.setState({ token: 'tok-1', companyId: '7' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('request', () => {
  it('signs the call and sends every header', async () => {
    answer({ code: 200, msg: 'ok', data: { a: 1 } });
    await expect(request('/user/info')).resolves.toEqual({ a: 1 });
    const { url, init } = calls[0]!;
    const headers = init.headers as Record<string, string>;
    expect(url).toBe('/yewu/user/info');
    expect(init.method).toBe('GET');
    expect(headers['X-Token']).toBe('tok-1');
    expect(headers['X-Companyid']).toBe('7');
    expect(headers['Accept-Language']).toBe('en-US');
    expect(headers['X-Timezone']).toBeTruthy();
    expect(headers['X-UpdateDate']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Math.abs(Number(headers['X-Time']) - Date.now() / 1000)).toBeLessThan(5);
    expect(headers['X-Sign']).toBe(computeSign('tok-1', headers['X-Time']!, DEFAULT_SIGN_SECRET));
  });

  it('signs without a token when signed out, and adds language and timezone to bodies', async () => {
    useSession.setState({ token: undefined });
    answer({ code: 200, msg: 'ok', data: null });
    await request('/user/login', { data: { username: 'a@b.cd' } });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers['X-Token']).toBeUndefined();
    expect(headers['X-Sign']).toBe(computeSign(undefined, headers['X-Time']!, DEFAULT_SIGN_SECRET));
    const body = JSON.parse(String(calls[0]!.init.body)) as Record<string, string>;
    expect(body).toMatchObject({ username: 'a@b.cd', language: 'en-US' });
    expect(body.timezone).toBeTruthy();
  });

  it('shows the server message for 3 s and rejects with its fields', async () => {
    answer({ code: 400, msg: 'Password: too short', data: { fields: { password: 'too short' } } });
    const error = await request('/user/password', { data: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fields).toEqual({ password: 'too short' });
    expect(message.error).toHaveBeenCalledWith({ content: 'Password: too short', duration: 3 });
  });

  it('keeps a "too many" message up while the wait lasts (at most 10 s), and words one the server left empty', async () => {
    answer({ code: 429, msg: 'Too many requests. Please wait 7 s and try again.', data: { retryAfter: 7 } });
    const error = await request('/user/login', { data: {} }).catch((e: unknown) => e);
    expect((error as ApiError).retryAfter).toBe(7);
    expect(message.error).toHaveBeenCalledWith({
      content: 'Too many requests. Please wait 7 s and try again.',
      duration: 7,
    });
    answer({ code: 429, msg: '', data: { retryAfter: 900 } });
    await request('/user/login', { data: {} }).catch(() => undefined);
    expect(message.error).toHaveBeenLastCalledWith({
      content: 'Too many requests. Please wait 900 s and try again',
      duration: 10,
    });
  });

  it('asks once to sign in again however many calls fail with a re-login code', async () => {
    answer({ code: 50014, msg: 'expired', data: null });
    await Promise.allSettled([request('/a'), request('/b'), request('/c')]);
    answer({ code: 50012, msg: 'replaced', data: null });
    await request('/d').catch(() => undefined);
    expect(modal.confirm).toHaveBeenCalledTimes(1);
    expect(message.error).not.toHaveBeenCalled();
    const options = modal.confirm.mock.calls[0]![0] as { okText: string; onOk: () => void; afterClose: () => void };
    expect(options.okText).toBe('Re-Login');
    options.onOk();
    expect(useSession.getState().token).toBeUndefined();
    expect(reload).toHaveBeenCalled();
    options.afterClose();
  });

  it('signs out and goes to the root page on 101', async () => {
    answer({ code: 101, msg: 'not signed in', data: null });
    await expect(request('/user/info')).rejects.toBeInstanceOf(ApiError);
    expect(useSession.getState().token).toBeUndefined();
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('hands the raw envelope of the exempt calls back without a toast', async () => {
    const envelope = { code: 500, msg: 'device busy', data: { state: 'error' } };
    answer(envelope);
    await expect(request('/configdata/readconfignew', { data: {} })).resolves.toEqual(envelope);
    expect(message.error).not.toHaveBeenCalled();
  });

  it('reports a transport failure for 5 s', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(request('/help/list')).rejects.toBeInstanceOf(TransportError);
    expect(message.error).toHaveBeenCalledWith({
      content: 'Network error, please contact the administrator',
      duration: 5,
    });
  });

  it('stays quiet for silent calls', async () => {
    answer({ code: 500, msg: 'boom', data: null });
    await expect(request('/user/info', { silent: true })).rejects.toBeInstanceOf(ApiError);
    answer({ code: 101, msg: 'no', data: null });
    await expect(request('/user/info', { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(message.error).not.toHaveBeenCalled();
    expect(assign).not.toHaveBeenCalled();
  });
});
