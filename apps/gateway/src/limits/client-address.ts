// ipaddr.js parses every IPv6 notation (compressed, zone ids, IPv4-mapped) into bytes; it is the
// parser Fastify's proxy-addr already uses for X-Forwarded-For, so both agree on what an address is.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { isIPv4 } from 'node:net';

/** IPv6 (and mapped) addresses already keyed: ipaddr.js takes tens of microseconds per parse. */
const memo = new Map<string, string>();
const MEMO_MAX = 10_000;

/**
 * The budget key of an anonymous client address: an IPv4 address as it is (an IPv4-mapped IPv6
 * address `::ffff:a.b.c.d` is that IPv4 client), an IPv6 address by its first `v6PrefixBits` bits.
 * A subscriber gets a whole /64 (2^64 addresses), so a per-address key would give one client
 * unlimited budgets; keying the prefix gives it one.
 */
export function clientKeyOf(ip: string, v6PrefixBits: number): string {
  // Plain dotted IPv4, the common case, is its own key (node's check is a fraction of a microsecond).
  if (isIPv4(ip)) return ip;
  const memoKey = `${v6PrefixBits}/${ip}`;
  let key = memo.get(memoKey);
  if (key === undefined) {
    key = parseKey(ip, v6PrefixBits);
    // bounded: a client cycling through addresses only empties it, never grows it
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(memoKey, key);
  }
  return key;
}

function parseKey(ip: string, v6PrefixBits: number): string {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return ip; // not an address (no socket address): its own key, as before
  }
  if (addr.kind() === 'ipv4') return addr.toString();
  const bytes = addr.toByteArray();
  for (let bit = v6PrefixBits; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${v6PrefixBits}`;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the client's budget key (see clientKeyOf), from `req.ip` as resolved with TRUSTED_PROXIES */
    readonly clientKey: string;
  }
}

/** Adds `req.clientKey`, computed only when read (most requests carry a key and never need it). */
export function decorateClientKey(fastify: FastifyInstance, v6PrefixBits: number): void {
  fastify.decorateRequest('clientKey', {
    getter(this: FastifyRequest): string {
      return clientKeyOf(this.ip, v6PrefixBits);
    },
  });
}
