// An HTTP(S) request to an address the address policy passed, made to exactly the address it checked: the
// connection's name lookup answers that address (no second DNS query), while the Host header and the TLS server
// name (and certificate check) stay the host name that was written.
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { OutboundTarget } from './address-policy.ts';

/** A name lookup that answers the checked address whatever it is asked. */
export function pinnedLookup(target: Pick<OutboundTarget, 'address' | 'family'>): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

export interface PinnedResponse {
  status: number;
  /** The remote address the connection went to. */
  remoteAddress: string | undefined;
}

/**
 * Sends one request to `url` over a connection to `target.address`; answers the status without reading more of
 * the body. Redirects are not followed.
 */
export function requestPinned(
  url: URL,
  target: OutboundTarget,
  init: { method: string; headers: Record<string, string>; body?: string | Buffer; timeoutMs: number },
): Promise<PinnedResponse> {
  const secure = url.protocol === 'https:';
  const options: RequestOptions & { servername?: string } = {
    method: init.method,
    host: target.host,
    port: target.port,
    path: `${url.pathname}${url.search}`,
    headers:
      init.body === undefined
        ? init.headers
        : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
    lookup: pinnedLookup(target),
    agent: false,
    signal: AbortSignal.timeout(init.timeoutMs),
  };
  if (secure && !isIP(target.host)) options.servername = target.host;
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(options, (res) => {
      const remoteAddress = res.socket.remoteAddress;
      res.resume();
      res.once('error', () => undefined);
      req.destroy();
      resolve({ status: res.statusCode ?? 0, remoteAddress });
    });
    req.once('error', reject);
    req.end(init.body);
  });
}
