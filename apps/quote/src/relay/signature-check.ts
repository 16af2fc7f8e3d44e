/**
 * Off-chain checks of a signed order's signature, before the relayer spends anything: the same
 * rules as the Router (OpenZeppelin ECDSA: 65 bytes, low-s, v 27/28, signer = order.sender over
 * the EIP-712 digest of this chain and this router), with messages that say what is wrong.
 */
import { Signature, TypedDataEncoder, getBytes, recoverAddress, type TypedDataDomain, type TypedDataField } from 'ethers';

/** secp256k1 order / 2: a larger `s` is the malleable twin of a valid signature. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

export interface SignedOrderTyped {
  domain: TypedDataDomain;
  types: Record<string, TypedDataField[]>;
  value: Record<string, unknown>;
}

export type SignatureProblem = { ok: true; digest: string } | { ok: false; message: string };

export function checkOrderSignature(typed: SignedOrderTyped, signature: string, sender: string): SignatureProblem {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) {
    return { ok: false, message: 'signature must be 65 bytes as 0x + 130 hex characters (r, s, v), as eth_signTypedData_v4 returns it' };
  }
  const bytes = getBytes(signature);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = bytes[64]!;
  if (s > HALF_N)
    return {
      ok: false,
      message: 'signature has a high s value (malleable form); sign again with a standard wallet, which produces low-s signatures',
    };
  if (v !== 27 && v !== 28) return { ok: false, message: `signature v must be 27 or 28, got ${v}` };
  const digest = TypedDataEncoder.hash(typed.domain, typed.types, typed.value);
  let signer: string;
  try {
    signer = recoverAddress(digest, Signature.from(signature));
  } catch (e) {
    return { ok: false, message: `signature cannot be recovered: ${(e as Error).message}` };
  }
  if (signer.toLowerCase() !== sender.toLowerCase()) {
    return {
      ok: false,
      message:
        `signature does not match the order: it recovers to ${signer.toLowerCase()}, not the sender ${sender.toLowerCase()}. ` +
        `Sign the order's signedOrder typed data exactly as returned (same chain id ${String(typed.domain.chainId)}, router ${String(typed.domain.verifyingContract).toLowerCase()}, and values)`,
    };
  }
  return { ok: true, digest };
}
