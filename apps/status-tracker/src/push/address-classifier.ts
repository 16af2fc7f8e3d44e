/**
 * Is an IP address one a webhook may be sent to? Only public unicast addresses are: loopback,
 * private (RFC 1918), carrier-grade NAT, link-local (the cloud metadata endpoint
 * 169.254.169.254 among them), unique-local, multicast, documentation, benchmarking and reserved
 * ranges are not, and neither are IPv6 forms that carry an IPv4 address the connection would
 * reach (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible, IPv4-translated). NAT64 (64:ff9b::/96) and
 * 6to4 (2002::/16) are judged by the IPv4 address inside. IPv6 outside 2000::/3 (global unicast)
 * is refused. Pure functions over bytes, so every range is unit-tested.
 */
import { isIP } from 'node:net';

export type AddressVerdict = { public: true } | { public: false; reason: string };

interface Range {
  bytes: number[];
  prefix: number;
  reason: string;
}

const v4 = (cidr: string, reason: string): Range => {
  const [addr, len] = cidr.split('/') as [string, string];
  return { bytes: addr.split('.').map(Number), prefix: Number(len), reason };
};

const V4_RANGES: Range[] = [
  v4('0.0.0.0/8', '"this network" (0.0.0.0/8)'),
  v4('10.0.0.0/8', 'private (RFC 1918)'),
  v4('100.64.0.0/10', 'carrier-grade NAT (100.64.0.0/10)'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.169.254/32', 'the cloud metadata endpoint (link-local)'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private (RFC 1918)'),
  v4('192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'),
  v4('192.0.2.0/24', 'documentation (TEST-NET-1)'),
  v4('192.88.99.0/24', '6to4 relay anycast'),
  v4('192.168.0.0/16', 'private (RFC 1918)'),
  v4('198.18.0.0/15', 'benchmarking (198.18.0.0/15)'),
  v4('198.51.100.0/24', 'documentation (TEST-NET-2)'),
  v4('203.0.113.0/24', 'documentation (TEST-NET-3)'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved (240.0.0.0/4, broadcast)'),
];

/** IPv6 ranges refused outright (checked before the embedded-IPv4 forms and the 2000::/3 rule). */
const V6_RANGES: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::ffff:0:0', 96, 'IPv4-mapped IPv6'],
  ['::ffff:0:0:0', 96, 'IPv4-translated IPv6'],
  ['::', 96, 'IPv4-compatible IPv6 (deprecated)'],
  ['64:ff9b:1::', 48, 'local-use NAT64 (64:ff9b:1::/48)'],
  ['100::', 64, 'discard-only (100::/64)'],
  ['2001:db8::', 32, 'documentation (2001:db8::/32)'],
  ['2001::', 23, 'IETF protocol assignments (2001::/23, Teredo among them)'],
  ['3fff::', 20, 'documentation (3fff::/20)'],
  ['5f00::', 16, 'SRv6 SIDs (5f00::/16)'],
  ['fc00::', 7, 'unique-local (fc00::/7)'],
  ['fe80::', 10, 'link-local (fe80::/10)'],
  ['fec0::', 10, 'site-local (fec0::/10, deprecated)'],
  ['ff00::', 8, 'multicast'],
];

function inPrefix(addr: readonly number[], net: readonly number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const i = bit / 8;
    const take = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((addr[i] ?? 0) & mask) !== ((net[i] ?? 0) & mask)) return false;
  }
  return true;
}

export function parseIpv4(ip: string): number[] | undefined {
  if (isIP(ip) !== 4) return undefined;
  return ip.split('.').map(Number);
}

/** 16 bytes of an IPv6 address (`::` compression and a trailing dotted IPv4 allowed), or undefined. */
export function parseIpv6(ip: string): number[] | undefined {
  if (isIP(ip) !== 6) return undefined;
  let text = ip.toLowerCase();
  let tail: number[] = [];
  const dotted = /(?<!\d)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const b = parseIpv4(dotted[1]!);
    if (!b) return undefined;
    tail = [(b[0]! << 8) | b[1]!, (b[2]! << 8) | b[3]!];
    text = text.slice(0, -dotted[1]!.length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = [...(rest === undefined ? [] : groups(rest)), ...tail];
  const words =
    rest === undefined ? [...left, ...right] : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (words.length !== 8 || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return undefined;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function classifyV4(b: readonly number[]): AddressVerdict {
  for (const r of V4_RANGES) if (inPrefix(b, r.bytes, r.prefix)) return { public: false, reason: r.reason };
  return { public: true };
}

const V6_PARSED = V6_RANGES.map(([net, prefix, reason]) => ({ bytes: parseIpv6(net)!, prefix, reason }));
const NAT64 = parseIpv6('64:ff9b::')!;
const SIX_TO_FOUR = parseIpv6('2002::')!;
const GLOBAL_UNICAST = parseIpv6('2000::')!;

function classifyV6(b: readonly number[]): AddressVerdict {
  for (const r of V6_PARSED) if (inPrefix(b, r.bytes, r.prefix)) return { public: false, reason: r.reason };
  const embedded = (v: AddressVerdict, what: string): AddressVerdict =>
    v.public ? v : { public: false, reason: `${what} of a non-public IPv4 address (${v.reason})` };
  if (inPrefix(b, NAT64, 96)) return embedded(classifyV4(b.slice(12)), 'NAT64');
  if (inPrefix(b, SIX_TO_FOUR, 16)) return embedded(classifyV4(b.slice(2, 6)), '6to4');
  if (!inPrefix(b, GLOBAL_UNICAST, 3)) return { public: false, reason: 'outside IPv6 global unicast (2000::/3)' };
  return { public: true };
}

/** Whether `ip` (an IPv4 or IPv6 literal, no brackets or zone) is a public unicast address. */
export function classifyAddress(ip: string): AddressVerdict {
  if (ip.includes('%')) return { public: false, reason: 'an address with a zone index' };
  const a4 = parseIpv4(ip);
  if (a4) return classifyV4(a4);
  const a6 = parseIpv6(ip);
  if (a6) return classifyV6(a6);
  return { public: false, reason: 'not an IP address' };
}
