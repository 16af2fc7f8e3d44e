import { BadRequestException } from '@nestjs/common';

export type Query = Record<string, string | string[] | undefined>;

/** Unknown query parameters are a 400 naming them and the accepted ones. */
export function assertKnownParams(query: Query, allowed: readonly string[]): void {
  const unknown = Object.keys(query).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    const accepted = allowed.length ? `accepted: ${allowed.join(', ')}` : 'this endpoint takes no parameters';
    throw new BadRequestException(`unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}; ${accepted}`);
  }
}

/** A parameter that may appear at most once, as a non-empty string. */
export function singleParam(query: Query, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new BadRequestException(`${name} must be given once`);
  if (v.length === 0) throw new BadRequestException(`${name} must not be empty`);
  if (v.length > 256) throw new BadRequestException(`${name} must be at most 256 characters`);
  return v;
}
