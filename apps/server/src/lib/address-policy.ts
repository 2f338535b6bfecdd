// Where the server may connect on a tenant's behalf (company webhooks, cameras). One policy for all of them:
// - the host name is resolved once, and every address it resolves to must pass;
// - never: the unspecified address, link-local (169.254/16, fe80::/10, which hold the cloud metadata services),
//   the known metadata addresses elsewhere, multicast, broadcast, reserved and documentation ranges, Teredo,
//   IPv4-compatible IPv6 (::a.b.c.d), and this server's own listening ports on any of its addresses;
// - IPv4 written inside IPv6 (::ffff:a.b.c.d, SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is
//   judged as the IPv4 address it carries;
// - loopback, this machine's other addresses, private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) and
//   carrier-grade NAT (100.64/10) only where the deployment allows private addresses for that use.
// The caller then connects to exactly the address that was checked (never resolving the name again, so a name
// that answers differently the second time cannot lead elsewhere).
import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** Why an address is refused. */
export type OutboundRefusal = 'self' | 'private' | 'reserved' | 'unresolved';

/** How an address is judged: reachable by anyone, local to this machine or site, or never. */
export type AddressClass = 'public' | 'private' | 'loopback' | 'reserved';

/** Every address a host name resolves to (DNS by default; tests give their own). */
export type HostResolver = (host: string) => Promise<string[]>;

export const resolveWithDns: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Cloud metadata and control endpoints outside link-local (Alibaba, Azure, Oracle, AWS IPv6). */
const METADATA = new Set(['100.100.100.200', '168.63.129.16', '192.0.0.192', 'fd00:ec2::254']);

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'rtsp:': 554, 'rtsps:': 322 };

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

function v4FromLow32(ip: ipaddr.IPv6): ipaddr.IPv4 {
  const p = ip.parts;
  return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
}

/** The IPv4 address an IPv6 address carries by one of the translation forms, or null. */
export function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  switch (ip.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return v4FromLow32(ip);
    case 'rfc6052': // 64:ff9b::/96 (the local-use 64:ff9b:1::/48 is judged reserved below)
      return p[2] === 0 ? v4FromLow32(ip) : null;
    case '6to4': // 2002:aabb:ccdd::/48
      return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
    default:
      return null;
  }
}

function classifyV4(ip: ipaddr.IPv4): AddressClass {
  if (METADATA.has(ip.toString())) return 'reserved';
  switch (ip.range()) {
    case 'unicast':
    case 'as112':
    case 'amt':
      return 'public';
    case 'private':
    case 'carrierGradeNat':
      return 'private';
    case 'loopback':
      return 'loopback';
    default: // unspecified, broadcast, multicast, linkLocal, reserved, benchmarking
      return 'reserved';
  }
}

function classifyIp(ip: Ip): AddressClass {
  if (ip.kind() === 'ipv4') return classifyV4(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  if (v6.zoneId) return 'reserved';
  if (METADATA.has(v6.toNormalizedString()) || METADATA.has(v6.toRFC5952String())) return 'reserved';
  const p = v6.parts;
  // ::a.b.c.d (IPv4-compatible, deprecated): nothing legitimate uses it; :: and ::1 are judged below
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return 'reserved';
  const range = v6.range();
  if (range === 'rfc6052' && p[2] !== 0) return 'reserved';
  const inner = embeddedIPv4(v6);
  if (inner) return classifyV4(inner);
  switch (range) {
    case 'unicast':
    case 'as112v6':
    case 'amt':
      return 'public';
    case 'uniqueLocal':
      return 'private';
    case 'loopback':
      return 'loopback';
    default: // unspecified, linkLocal, multicast, teredo, site-local, discard, documentation …
      return 'reserved';
  }
}

/**
 * An address literal parsed, or null. IPv6 goes through the URL parser first: ipaddr.js reads the dotted tail of
 * `::a.b.c.d` as `::ffff:a.b.c.d`, the URL parser as what it is (`::7f00:1`).
 */
function parseIp(address: string): Ip | null {
  let bare = address.replace(/^\[|\]$/g, '');
  if (bare.includes(':')) {
    try {
      bare = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
    } catch {
      return null;
    }
  }
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : null;
}

/** How an address literal (IPv4 or IPv6, brackets allowed) is judged; anything unparsable is reserved. */
export function classifyAddress(address: string): AddressClass {
  const ip = parseIp(address);
  return ip ? classifyIp(ip) : 'reserved';
}

/** The form addresses are compared in: IPv4 plain, IPv6 normalised, IPv4 carried in IPv6 as the IPv4. */
function canonical(address: string): string | null {
  const ip = parseIp(address.replace(/%.*$/, ''));
  if (!ip) return null;
  if (ip.kind() === 'ipv4') return ip.toString();
  const v6 = ip as ipaddr.IPv6;
  return (embeddedIPv4(v6) ?? v6).toString();
}

function machineAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
}

/** An address that passed, to connect to exactly. */
export interface OutboundTarget {
  /** The host as written in the address (brackets taken off an IPv6 literal). */
  host: string;
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
  port: number;
  /** The address with its host replaced by the checked address (for programs that resolve names themselves). */
  pinned: URL;
}

export type OutboundCheck = { ok: true; target: OutboundTarget } | { ok: false; reason: OutboundRefusal };

export interface AddressPolicyOptions {
  /** The ports this server listens on (HTTP, MQTT …): this machine at one of them is the server itself. */
  ownPorts: () => number[];
  resolve?: HostResolver | undefined;
  /** This machine's addresses (default: its network interfaces'). */
  ownAddresses?: () => string[];
}

export function createAddressPolicy(opts: AddressPolicyOptions) {
  const resolve = opts.resolve ?? resolveWithDns;
  const ownAddresses = opts.ownAddresses ?? machineAddresses;

  /** Judges one resolved address for a port; null when it may be used. */
  function judge(address: string, port: number, allowPrivate: boolean, own: Set<string>): OutboundRefusal | null {
    const kind = classifyAddress(address);
    if (kind === 'reserved') return 'reserved';
    const mine = kind === 'loopback' || own.has(canonical(address) ?? '');
    if (mine && opts.ownPorts().includes(port)) return 'self';
    if (kind === 'public' && !mine) return null;
    return allowPrivate ? null : 'private';
  }

  return {
    /**
     * Resolves the address's host once and judges every address it gives; answers the first of them to connect
     * to, or why the address is refused. The scheme and the rest of the address are the caller's to check.
     */
    async check(raw: string | URL, use: { allowPrivate: boolean }): Promise<OutboundCheck> {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return { ok: false, reason: 'unresolved' };
      }
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (!host) return { ok: false, reason: 'unresolved' };
      let addresses: string[];
      if (ipaddr.isValid(host) && (host.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(host))) {
        addresses = [host];
      } else {
        try {
          addresses = await resolve(host);
        } catch {
          return { ok: false, reason: 'unresolved' };
        }
      }
      if (!addresses.length) return { ok: false, reason: 'unresolved' };
      const port = Number(url.port || DEFAULT_PORTS[url.protocol] || 0);
      const own = new Set(
        ownAddresses()
          .map(canonical)
          .filter((a): a is string => a !== null),
      );
      for (const address of addresses) {
        const why = judge(address, port, use.allowPrivate, own);
        if (why) return { ok: false, reason: why };
      }
      const address = addresses[0]!.replace(/^\[|\]$/g, '');
      const family = address.includes(':') ? 6 : 4;
      const pinned = new URL(url.href);
      pinned.hostname = family === 6 ? `[${address}]` : address;
      return { ok: true, target: { host, address, family, port, pinned } };
    },
  };
}
export type AddressPolicy = ReturnType<typeof createAddressPolicy>;
