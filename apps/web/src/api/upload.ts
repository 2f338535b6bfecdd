// Forms with files (multipart) and files answered by signed calls. An upload goes through XMLHttpRequest, the
// one browser API that reports upload progress, with the same headers and sign as every call; multipart bodies
// are not JSON, so they are neither given language and time zone fields (the headers carry them) nor
// encrypted; the answer is read like any other. Pictures that only some users may see are fetched with the
// headers (and shown from data: addresses), because an <img src> cannot send the session token.
import { API_BASE, REQUEST_TIMEOUT_MS, ResultCode, type Envelope } from '@genset/protocol';
import { translate } from '../i18n/index.ts';
import { feedback, TOAST_SECONDS } from './feedback.ts';
import { buildHeaders, envelopeOf, failure, readEnvelope, TransportError } from './request.ts';

/** How long an upload may take: pictures from a phone on a slow network need longer than a call. */
export const UPLOAD_TIMEOUT_MS = Math.max(REQUEST_TIMEOUT_MS, 300_000);

export interface UploadOptions {
  /** Called with the share of the body sent so far (0 to 1). */
  onProgress?: (share: number) => void;
  /** The caller reports failures itself. */
  silent?: boolean;
  signal?: AbortSignal;
}

async function parseEnvelope(text: string): Promise<Envelope> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TransportError('Response is not JSON');
  }
  return envelopeOf(body);
}

/** POSTs a multipart form to `url` and returns the envelope's data (errors as `request` reports them). */
export function uploadForm<T>(url: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${url}`);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    for (const [name, value] of Object.entries(buildHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    const transportFailure = (key: 'errors.network' | 'errors.timeout') => {
      const message = translate(key);
      if (!options.silent) feedback().message.error({ content: message, duration: TOAST_SECONDS.network });
      reject(new TransportError(message));
    };
    xhr.onerror = () => transportFailure('errors.network');
    xhr.ontimeout = () => transportFailure('errors.timeout');
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) return transportFailure('errors.network');
      parseEnvelope(xhr.responseText).then(
        (envelope) => {
          if (envelope.code === ResultCode.ok) resolve(envelope.data as T);
          else reject(failure(envelope, options.silent));
        },
        () => transportFailure('errors.network'),
      );
    };
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** GETs a file answered by a signed call (an envelope instead is an error, reported as usual). */
export async function fetchBlob(url: string, params: Record<string, string>, signal?: AbortSignal): Promise<Blob> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const response = await fetch(`${API_BASE}${url}?${new URLSearchParams(params).toString()}`, {
    headers: buildHeaders(),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (response.ok && !String(response.headers.get('content-type')).includes('application/json')) {
    return response.blob();
  }
  throw failure(await readEnvelope(response), true);
}
