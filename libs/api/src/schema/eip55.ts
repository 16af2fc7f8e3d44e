import { keccak_256 } from '@noble/hashes/sha3';

/**
 * EIP-55 mixed-case checksum of a 0x address (40 hex digits, already validated): a letter is
 * upper case when the matching nibble of keccak256(lowercase hex) is 8 or more.
 */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const c = hex[i]!;
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    out += nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/**
 * Why a 0x address (40 hex digits, already validated) is refused, or undefined. All lower case and
 * all upper case carry no checksum and are taken as they are; mixed case is a checksum and must be
 * right, since a wrong one usually means a mistyped address.
 */
export function checksumProblem(address: string): string | undefined {
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return undefined;
  const expected = toChecksumAddress(address);
  return digits === expected.slice(2)
    ? undefined
    : `has a wrong EIP-55 checksum (mixed case); the checksummed form is ${expected}, or send it all in lower case`;
}
