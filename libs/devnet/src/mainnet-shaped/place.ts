/**
 * The three ways the mainnet-shaped profile puts a contract at its real address, in order of
 * preference: the real deployer's CREATE at the original nonce (the address then follows from
 * the chain's own rules), the real creator contract's CREATE at a searched nonce (Aave's proxies),
 * and, where the creator is unknown, a deployment at a scratch address whose runtime code and
 * storage are copied to the real address (anvil_setCode + anvil_setStorageAt). Every placement is
 * recorded, so the profile's manifest says how each address came to hold code. A copied contract
 * whose code holds its own address (an `address(this)` immutable) has it rewritten to the real one.
 */
import { type InterfaceAbi, Interface, getAddress, getCreateAddress } from 'ethers';
import { gunzipSync } from 'node:zlib';
import { toHex } from '../chain/rpc';
import type { BuildContext } from '../deploy/context';

export type PlacementMethod = 'create-at-nonce' | 'creator-nonce' | 'create2' | 'set-code';

export interface Placement {
  address: string;
  what: string;
  method: PlacementMethod;
  /** create-at-nonce / creator-nonce: the sender (an account or the creating contract) and its nonce; create2: the factory */
  from?: string;
  nonce?: number;
  /** set-code: where it was deployed first and copied from */
  scratch?: string;
  /** where the real address is written down (the registry entry and the book it was read from), when recorded */
  source?: string;
  /** set-code with `rewriteSelf`: how many times the scratch address stood in the runtime code (now the real address) */
  rewritten?: number;
}

interface DumpedAccount {
  code?: string;
  storage?: Record<string, string>;
}

/** Every account's code and storage from anvil_dumpState (gzip of JSON). */
export async function dumpAccounts(ctx: BuildContext): Promise<Map<string, DumpedAccount>> {
  const dump = await ctx.rpc.call<string>('anvil_dumpState');
  const state = JSON.parse(gunzipSync(Buffer.from(dump.slice(2), 'hex')).toString('utf8')) as { accounts: Record<string, DumpedAccount> };
  return new Map(Object.entries(state.accounts).map(([a, acct]) => [a.toLowerCase(), acct]));
}

const word = (hex: string): string => `0x${hex.replace(/^0x/, '').padStart(64, '0')}`;

/**
 * The runtime code with every byte-aligned occurrence of `from` (an address) replaced by `to`, and
 * how many there were: an immutable set to `address(this)` in the constructor (Uniswap V3's
 * NoDelegateCall `original`) is stored in the code, not in storage.
 */
export function rewriteAddress(code: string, from: string, to: string): { code: string; count: number } {
  const needle = from.toLowerCase().replace(/^0x/, '');
  const replacement = to.toLowerCase().replace(/^0x/, '');
  let hex = code.toLowerCase().replace(/^0x/, '');
  let count = 0;
  for (let i = hex.indexOf(needle); i !== -1; i = hex.indexOf(needle, i + 1)) {
    if (i % 2 !== 0) continue;
    hex = `${hex.slice(0, i)}${replacement}${hex.slice(i + needle.length)}`;
    count++;
  }
  return { code: `0x${hex}`, count };
}

/**
 * Copies code and storage of `scratch` to `real` and removes the code at `scratch`, so nothing
 * answers there. The contracts placed this way are deployed with constructor arguments that
 * already name the real addresses. Only with `rewriteSelf` is the code patched: the scratch
 * address in it (an immutable holding `address(this)`) becomes the real one; the count is returned
 * and must be non-zero. It is not done by default: OpenZeppelin's EIP712 (TestERC20's permit)
 * keeps `address(this)` next to a domain separator hashed over the scratch address, and it
 * recomputes the separator only while the two addresses differ.
 */
export async function copyToReal(
  ctx: BuildContext,
  accounts: Map<string, DumpedAccount>,
  scratch: string,
  real: string,
  rewriteSelf = false,
): Promise<number> {
  const acct = accounts.get(scratch.toLowerCase());
  if (!acct?.code || acct.code === '0x') throw new Error(`nothing deployed at ${scratch} to copy to ${real}`);
  const { code, count } = rewriteSelf ? rewriteAddress(acct.code, scratch, real) : { code: acct.code, count: 0 };
  if (rewriteSelf && count === 0)
    throw new Error(`the code deployed at ${scratch} does not hold its own address: nothing to rewrite for ${real}`);
  const calls = [
    { method: 'anvil_setCode', params: [real, code] },
    { method: 'anvil_setNonce', params: [real, '0x1'] },
    ...Object.entries(acct.storage ?? {}).map(([slot, value]) => ({
      method: 'anvil_setStorageAt',
      params: [real, word(slot), word(value)],
    })),
    { method: 'anvil_setCode', params: [scratch, '0x'] },
  ];
  await ctx.rpc.batch(calls);
  return count;
}

/**
 * Deploys at scratch addresses (one block), then copies each to its real address. `deploys`
 * are queued through the build's writer from the build's deployer.
 */
export async function placeBySetCode(
  ctx: BuildContext,
  deploys: ReadonlyArray<{
    what: string;
    real: string;
    artifact: { abi: InterfaceAbi; bytecode: string };
    args: readonly unknown[];
    gas?: bigint;
    rewriteSelf?: boolean;
  }>,
): Promise<Placement[]> {
  const scratch = deploys.map((d) => ctx.writer.deploy(ctx.deployer, d.artifact, d.args, d.what, d.gas ?? 8_000_000n));
  await ctx.writer.mine(ctx.clock.next());
  const accounts = await dumpAccounts(ctx);
  const out: Placement[] = [];
  for (const [i, d] of deploys.entries()) {
    const rewritten = await copyToReal(ctx, accounts, scratch[i]!, d.real, d.rewriteSelf);
    out.push({
      address: getAddress(d.real),
      what: d.what,
      method: 'set-code',
      scratch: scratch[i]!,
      ...(d.rewriteSelf ? { rewritten } : {}),
    });
  }
  return out;
}

interface Receipt {
  status: string;
  contractAddress?: string | null;
}

/**
 * Sends one transaction from `from` at exactly `nonce` (anvil_setNonce, impersonated) in a block
 * of its own, outside the build's writer (whose nonce book covers only its own senders).
 */
export async function sendAtNonce(
  ctx: BuildContext,
  from: string,
  nonce: number,
  tx: { to?: string; data: string; gas?: bigint },
  label: string,
): Promise<void> {
  await ctx.rpc.batch([
    { method: 'anvil_setNonce', params: [from, toHex(nonce)] },
    { method: 'anvil_setBalance', params: [from, toHex(10n ** 20n)] },
  ]);
  const hash = await ctx.rpc.call<string>('eth_sendTransaction', [
    { from, to: tx.to, data: tx.data, gas: toHex(tx.gas ?? 10_000_000n), nonce: toHex(nonce) },
  ]);
  await ctx.rpc.call('evm_mine', [ctx.clock.next()]);
  const receipt = await ctx.rpc.call<Receipt | null>('eth_getTransactionReceipt', [hash]);
  if (receipt?.status !== '0x1') throw new Error(`${label} from ${from} at nonce ${nonce} failed`);
}

/** The real deployer's CREATE at its original nonce; fails if the pair does not give `real`. */
export async function placeByCreate(
  ctx: BuildContext,
  p: {
    what: string;
    real: string;
    from: string;
    nonce: number;
    artifact: { abi: InterfaceAbi; bytecode: string };
    args: readonly unknown[];
  },
): Promise<Placement> {
  const expected = getCreateAddress({ from: p.from, nonce: p.nonce });
  if (expected.toLowerCase() !== p.real.toLowerCase())
    throw new Error(`${p.what}: CREATE from ${p.from} at nonce ${p.nonce} gives ${expected}, not ${p.real}`);
  const data = `${p.artifact.bytecode}${new Interface(p.artifact.abi).encodeDeploy(p.args).slice(2)}`;
  await sendAtNonce(ctx, p.from, p.nonce, { data, gas: 12_000_000n }, `deploy ${p.what}`);
  return { address: getAddress(p.real), what: p.what, method: 'create-at-nonce', from: getAddress(p.from), nonce: p.nonce };
}

/** The nonce at which `creator` (a contract creating with CREATE) yields `target`, searching 0..max. */
export function creatorNonce(creator: string, target: string, max = 2_000): number | undefined {
  for (let n = 0; n <= max; n++) if (getCreateAddress({ from: creator, nonce: n }).toLowerCase() === target.toLowerCase()) return n;
  return undefined;
}
