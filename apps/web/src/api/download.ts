// File downloads (spec 7: /genset/export, /genset/exportruntimedata answer with the file itself): a signed
// POST like every other call; an answer that is an envelope is an error and gets the usual toast.
import { API_BASE, REQUEST_TIMEOUT_MS, type Envelope } from '@genset/protocol';
import { storedLanguage } from '../i18n/languages.ts';
import { translate } from '../i18n/index.ts';
import { BODY_ENCRYPTION, SIGN_SECRET } from './build-info.ts';
import { decryptText, encryptText } from './crypto.ts';
import { feedback, TOAST_SECONDS } from './feedback.ts';
import { ApiError, buildHeaders, timezone, TransportError } from './request.ts';

/** The file name of a Content-Disposition header (RFC 6266 filename* first), or undefined. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || undefined;
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

async function readError(response: Response): Promise<ApiError> {
  let body: unknown = await response.json();
  if (body && typeof body === 'object' && typeof (body as { paramStr?: unknown }).paramStr === 'string') {
    body = JSON.parse(await decryptText((body as { paramStr: string }).paramStr, SIGN_SECRET));
  }
  const envelope = body as Envelope;
  return new ApiError(envelope.code, envelope.msg || translate('errors.generic'), envelope.data);
}

/** POSTs `data` to `url` and saves the file it answers with; returns the saved name. */
export async function downloadFile(url: string, data: object, fallbackName: string): Promise<string> {
  const headers = buildHeaders();
  headers['Content-Type'] = 'application/json';
  const json = JSON.stringify({ ...data, language: storedLanguage(), timezone: timezone() });
  const body = BODY_ENCRYPTION ? JSON.stringify({ paramStr: await encryptText(json, SIGN_SECRET) }) : json;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${url}`, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    const message = translate('errors.network');
    feedback().message.error({ content: message, duration: TOAST_SECONDS.network });
    throw new TransportError(message);
  }
  if (!response.ok) {
    const message = translate('errors.network');
    feedback().message.error({ content: message, duration: TOAST_SECONDS.network });
    throw new TransportError(`HTTP ${response.status}`);
  }
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    const error = await readError(response);
    feedback().message.error({ content: error.message, duration: TOAST_SECONDS.serverError });
    throw error;
  }
  const name = fileNameOf(response.headers.get('content-disposition')) ?? fallbackName;
  saveBlob(await response.blob(), name);
  return name;
}
