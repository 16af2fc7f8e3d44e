/**
 * State overrides that give a simulation sender a token balance and an allowance it does not
 * have, so an estimate can run the real order transaction with eth_call. The storage slot of a
 * token's balance and allowance mappings is found once per token by probing (Solidity mapping
 * layout, slots 0..PROBE_SLOTS): write a marker and see balanceOf/allowance move. Balances the
 * token scales (Aave aTokens: scaled balance × index) are handled by solving for the raw value.
 */
import { AbiCoder, Interface, keccak256, toBeHex, zeroPadValue } from 'ethers';
import { JsonRpcError, type JsonRpcClient } from '@tokensvc/chain';

const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address,address) view returns (uint256)',
]);
const coder = AbiCoder.defaultAbiCoder();
const PROBE_SLOTS = 100;
const MARKER = 10n ** 30n + 7n;

export type StateOverride = Record<string, { balance?: string; stateDiff?: Record<string, string> }>;

const word = (v: bigint): string => zeroPadValue(toBeHex(v), 32);
const mapKey = (key: string, slot: string | bigint): string =>
  keccak256(coder.encode(['address', typeof slot === 'bigint' ? 'uint256' : 'bytes32'], [key, slot]));
const balanceKey = (holder: string, slot: number): string => mapKey(holder, BigInt(slot));
const allowanceKey = (holder: string, spender: string, slot: number): string => mapKey(spender, mapKey(holder, BigInt(slot)));

interface Slots {
  balance: number;
  allowance: number;
}

export class StateOverrides {
  private readonly slots = new Map<string, Promise<Slots | undefined>>();

  /** Overrides so `holder` has at least `amount` of `token` and has approved `spender` for it; undefined when the layout is not found. */
  async forToken(
    client: JsonRpcClient,
    token: string,
    holder: string,
    spender: string,
    amount: bigint,
  ): Promise<StateOverride | undefined> {
    const key = `${client.url}|${token}`;
    let found = this.slots.get(key);
    if (!found) this.slots.set(key, (found = this.probe(client, token, holder, spender).catch(() => undefined)));
    const slots = await found;
    if (!slots) return undefined;
    const raw = await this.rawBalanceFor(client, token, holder, slots.balance, amount);
    if (raw === undefined) return undefined;
    return {
      [token]: {
        stateDiff: { [balanceKey(holder, slots.balance)]: word(raw), [allowanceKey(holder, spender, slots.allowance)]: word(amount) },
      },
    };
  }

  /** Native balance for the sender (value plus gas headroom). */
  native(holder: string, amount: bigint): StateOverride {
    return { [holder]: { balance: toBeHex(amount) } };
  }

  private async read(client: JsonRpcClient, token: string, data: string, override: StateOverride): Promise<bigint | undefined> {
    try {
      return BigInt(await client.call<string>('eth_call', [{ to: token, data }, 'latest', override]));
    } catch (e) {
      if (e instanceof JsonRpcError) return undefined;
      throw e;
    }
  }

  private async probe(client: JsonRpcClient, token: string, holder: string, spender: string): Promise<Slots | undefined> {
    const candidates = Array.from({ length: PROBE_SLOTS }, (_, i) => i);
    const batch = async (data: string, key: (slot: number) => string): Promise<number | undefined> => {
      const results = await client.batch<string>(
        candidates.map((slot) => ({
          method: 'eth_call',
          params: [{ to: token, data }, 'latest', { [token]: { stateDiff: { [key(slot)]: word(MARKER) } } }],
        })),
      );
      const base = BigInt(await client.call<string>('eth_call', [{ to: token, data }, 'latest']));
      const hit = results.findIndex((r) => BigInt(r) !== base && BigInt(r) > 0n);
      return hit < 0 ? undefined : hit;
    };
    const balance = await batch(ERC20.encodeFunctionData('balanceOf', [holder]), (slot) => balanceKey(holder, slot));
    const allowance = await batch(ERC20.encodeFunctionData('allowance', [holder, spender]), (slot) => allowanceKey(holder, spender, slot));
    return balance === undefined || allowance === undefined ? undefined : { balance, allowance };
  }

  /** The raw storage value that makes balanceOf(holder) >= amount (scaled balances solved linearly). */
  private async rawBalanceFor(
    client: JsonRpcClient,
    token: string,
    holder: string,
    slot: number,
    amount: bigint,
  ): Promise<bigint | undefined> {
    const data = ERC20.encodeFunctionData('balanceOf', [holder]);
    const at = (raw: bigint): Promise<bigint | undefined> =>
      this.read(client, token, data, { [token]: { stateDiff: { [balanceKey(holder, slot)]: word(raw) } } });
    const shown = await at(MARKER);
    if (shown === undefined || shown === 0n) return undefined;
    if (shown === MARKER) return amount;
    const raw = (amount * MARKER) / shown + 2n;
    const check = await at(raw);
    return check !== undefined && check >= amount ? raw : undefined;
  }
}
