// What the SMS providers' HTTP calls share: one POST with a deadline, where a provider that cannot be reached, does
// not answer in time or answers something unreadable becomes a transient `unavailable` DeliveryError.
import { DeliveryError } from '../types.ts';

/** How long a provider may take to answer one message before another attempt (or another provider) is better. */
export const DEFAULT_SMS_TIMEOUT_MS = 10_000;

/** A provider's answer: its status, its text and that text read as JSON when it is JSON. */
export interface ProviderAnswer {
  status: number;
  text: string;
  json: Record<string, unknown> | undefined;
}

export interface PostInit {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** The caller's own signal: when it aborts, its reason is thrown as it is, since nobody failed. */
  signal?: AbortSignal | undefined;
  fetch?: typeof fetch | undefined;
}

/** Sends one POST and reads the whole answer, or throws `unavailable` for the network and the deadline. */
export async function postToProvider(provider: string, url: string, init: PostInit): Promise<ProviderAnswer> {
  const deadline = AbortSignal.timeout(init.timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  const fetchImpl = init.fetch ?? fetch;
  try {
    // Redirects are not followed: a provider's API never redirects a send, and following one would carry the
    // credentials to wherever it pointed.
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal,
      redirect: 'manual',
    });
    const text = await response.text();
    return { status: response.status, text, json: readJsonObject(text) };
  } catch (err) {
    if (init.signal?.aborted) throw init.signal.reason;
    if (deadline.aborted) {
      throw new DeliveryError('unavailable', `${provider} did not answer within ${init.timeoutMs} ms`);
    }
    throw new DeliveryError('unavailable', `${provider} could not be reached: ${networkCause(err)}`);
  }
}

/** The JSON object a text holds, or undefined for anything else (an HTML error page from a proxy, say). */
function readJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Node's fetch reports "fetch failed" and keeps the useful part (ECONNREFUSED, ENOTFOUND) in its cause. */
function networkCause(err: unknown): string {
  if (err instanceof Error) {
    const cause: unknown = err.cause;
    if (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      return code ? `${code} (${cause.message})` : cause.message;
    }
    return err.message;
  }
  return String(err);
}

/** A field of a JSON answer as text, whether the provider sent it as a string or a number. */
export function textField(json: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = json?.[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
