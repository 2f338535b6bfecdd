// The one request function (spec 7, 8): adds the headers and the sign, adds language and timezone to bodies,
// optionally encrypts, reads the envelope and applies the error catalogue.
import { API_BASE, computeSign, RELOGIN_CODES, REQUEST_TIMEOUT_MS, ResultCode, type Envelope } from '@genset/protocol';
import { storedLanguage } from '../i18n/languages.ts';
import { translate } from '../i18n/index.ts';
import { useSession } from '../stores/session.ts';
import { BODY_ENCRYPTION, BUILD_DATE, SIGN_SECRET } from './build-info.ts';
import { decryptText, encryptText } from './crypto.ts';
import { feedback, TOAST_SECONDS } from './feedback.ts';

/** Calls whose raw envelope goes back to the caller, which reads the outcome itself (spec 8). */
export const RAW_RESPONSE_CALLS: readonly string[] = [
  '/devicedata/sendaction',
  '/configdata/readconfignew',
  '/configdata/writeconfignew',
];

/** The server answered with an envelope code other than 200. */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data: unknown) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
  }
  /** Per-field messages of a 400, already localised by the server. */
  get fields(): Record<string, string> {
    const fields = (this.data as { fields?: unknown } | null)?.fields;
    return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
  }
  get retryAfter(): number | undefined {
    const value = (this.data as { retryAfter?: unknown } | null)?.retryAfter;
    return typeof value === 'number' ? value : undefined;
  }
}

/** No usable answer: network down, timeout, HTTP error, or a body that is not an envelope. */
export class TransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransportError';
  }
}

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST';
  params?: Query;
  /** JSON body; language and timezone are added. */
  data?: object;
  /** Form body (application/x-www-form-urlencoded); language and timezone are added. */
  form?: Record<string, string>;
  /** The caller reports failures itself: no toast, no redirect, no re-login box. */
  silent?: boolean;
  signal?: AbortSignal;
}

export function timezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every header of spec 7, signed for this moment. */
export function buildHeaders(now = Date.now()): Record<string, string> {
  const { token, companyId } = useSession.getState();
  const time = String(Math.floor(now / 1000));
  const headers: Record<string, string> = {
    'X-Companyid': companyId ?? '',
    'X-Time': time,
    'X-Timezone': timezone(),
    'X-UpdateDate': BUILD_DATE,
    'Accept-Language': storedLanguage(),
    'X-Sign': computeSign(token, time, SIGN_SECRET),
  };
  if (token) headers['X-Token'] = token;
  return headers;
}

function urlWithQuery(url: string, params?: Query): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const query = search.toString();
  return `${API_BASE}${url}${query ? (url.includes('?') ? '&' : '?') + query : ''}`;
}

async function buildBody(options: RequestOptions, headers: Record<string, string>): Promise<BodyInit | undefined> {
  const extra = { language: storedLanguage(), timezone: timezone() };
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return new URLSearchParams({ ...options.form, ...extra });
  }
  if (options.method === 'GET') return undefined;
  headers['Content-Type'] = 'application/json';
  const json = JSON.stringify({ ...(options.data ?? {}), ...extra });
  if (!BODY_ENCRYPTION) return json;
  return JSON.stringify({ paramStr: await encryptText(json, SIGN_SECRET) });
}

export async function readEnvelope(response: Response): Promise<Envelope> {
  if (!response.ok) throw new TransportError(`HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new TransportError('Response is not JSON');
  }
  return envelopeOf(body);
}

/** The envelope of an answer's parsed JSON, decrypted first when it came encrypted (`paramStr`). */
export async function envelopeOf(json: unknown): Promise<Envelope> {
  let body = json;
  if (body && typeof body === 'object' && typeof (body as { paramStr?: unknown }).paramStr === 'string') {
    body = JSON.parse(await decryptText((body as { paramStr: string }).paramStr, SIGN_SECRET));
  }
  if (!body || typeof body !== 'object' || typeof (body as Envelope).code !== 'number') {
    throw new TransportError('Response is not an envelope');
  }
  return body as Envelope;
}

/** What an envelope without a message says. */
function fallbackMessage(envelope: Envelope): string {
  const seconds = (envelope.data as { retryAfter?: unknown } | null)?.retryAfter;
  if (envelope.code === ResultCode.tooMany && typeof seconds === 'number') {
    return translate('errors.tooMany', { seconds });
  }
  return translate('errors.generic');
}

let reloginOpen = false;

/** One confirm box, however many calls fail with a re-login code at once. */
function askToSignInAgain(): void {
  if (reloginOpen) return;
  reloginOpen = true;
  feedback().modal.confirm({
    title: translate('errors.relogin.title'),
    content: translate('errors.relogin.content'),
    okText: translate('errors.relogin.ok'),
    cancelText: translate('common.actions.cancel'),
    onOk() {
      useSession.getState().resetToken();
      window.location.reload();
    },
    afterClose() {
      reloginOpen = false;
    },
  });
}

function signOutToRoot(): void {
  useSession.getState().resetToken();
  window.location.assign('/');
}

export function isReloginOpen(): boolean {
  return reloginOpen;
}

export async function request<T>(url: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? (options.data || options.form ? 'POST' : 'GET');
  const headers = buildHeaders();
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let envelope: Envelope;
  try {
    const body = await buildBody({ ...options, method }, headers);
    const response = await fetch(urlWithQuery(url, options.params), { method, headers, body, signal });
    envelope = await readEnvelope(response);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const timedOut = timeout.aborted;
    const message = translate(timedOut ? 'errors.timeout' : 'errors.network');
    if (!options.silent) feedback().message.error({ content: message, duration: TOAST_SECONDS.network });
    throw new TransportError(message);
  }

  if (RAW_RESPONSE_CALLS.includes(url)) return envelope as T;
  if (envelope.code === ResultCode.ok) return envelope.data as T;
  throw failure(envelope, options.silent);
}

/**
 * The error of an envelope other than 200, reported as every call reports it (toast, sign-in again, back to the
 * start) unless `silent`. Calls made without `request` (uploads) use it too.
 */
export function failure(envelope: Envelope, silent = false): ApiError {
  const error = new ApiError(envelope.code, envelope.msg || fallbackMessage(envelope), envelope.data);
  if (silent) return error;
  if (envelope.code === ResultCode.notSignedIn) {
    signOutToRoot();
  } else if (envelope.code === ResultCode.passwordChangeRequired) {
    // an administrator set a temporary password meanwhile: the console starts again at the password form
    window.location.assign('/index');
  } else if (RELOGIN_CODES.includes(envelope.code)) {
    askToSignInAgain();
  } else if (envelope.code === ResultCode.tooMany) {
    // The message says how long to wait; it stays up for that long, within the long toast's time.
    const seconds = Math.min(Math.max(error.retryAfter ?? 0, TOAST_SECONDS.serverError), TOAST_SECONDS.long);
    feedback().message.error({ content: error.message, duration: seconds });
  } else {
    feedback().message.error({ content: error.message, duration: TOAST_SECONDS.serverError });
  }
  return error;
}

export function get<T>(url: string, params?: Query, options: Omit<RequestOptions, 'params'> = {}): Promise<T> {
  return request<T>(url, { ...options, method: 'GET', params });
}

export function post<T>(url: string, data?: object, options: Omit<RequestOptions, 'data'> = {}): Promise<T> {
  return request<T>(url, { ...options, method: 'POST', data: data ?? {} });
}
