/**
 * What the helpers need of a wallet, and adapters for an ethers v6 Signer and a viem WalletClient.
 * The adapters are typed structurally: the SDK imports neither library (both are optional peers).
 */
import { sleep } from './abort';
import { TokensvcTimeoutError } from './errors';

export type Hex = `0x${string}`;

export interface TxRequest {
  to: string;
  data: string;
  value: bigint;
  gasLimit?: bigint;
}

export interface Receipt {
  hash: string;
  status: 'success' | 'reverted';
  blockNumber: bigint;
}

export interface TypedDataMessage {
  domain: Record<string, unknown>;
  /** without EIP712Domain */
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** A wallet as the helpers use it. */
export interface WalletAdapter {
  getAddress(): Promise<string>;
  /** sends, returns the transaction hash */
  sendTransaction(tx: TxRequest): Promise<string>;
  /** the receipt once mined, or null while it is not */
  getReceipt(hash: string): Promise<Receipt | null>;
  signTypedData(data: TypedDataMessage): Promise<string>;
}

export interface WaitReceiptOptions {
  timeoutMs?: number;
  pollMs?: number;
  signal?: AbortSignal;
}

/** Polls the receipt (a receipt poll works on every node; a block subscription may wait for a next block that never comes). */
export async function waitForReceipt(wallet: WalletAdapter, hash: string, opts: WaitReceiptOptions = {}): Promise<Receipt> {
  const until = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    const r = await wallet.getReceipt(hash);
    if (r) return r;
    if (Date.now() > until) throw new TokensvcTimeoutError(`transaction ${hash} not mined within ${opts.timeoutMs ?? 120_000} ms`);
    await sleep(opts.pollMs ?? 250, opts.signal);
  }
}

// ---- ethers v6 ----

/** The parts of an ethers v6 Signer (e.g. a Wallet connected to a provider) the adapter uses. */
export interface EthersSignerLike {
  getAddress(): Promise<string>;
  sendTransaction(tx: { to: string; data: string; value: bigint; gasLimit?: bigint }): Promise<{ hash: string }>;
  signTypedData(
    domain: Record<string, unknown>,
    types: Record<string, { name: string; type: string }[]>,
    value: Record<string, unknown>,
  ): Promise<string>;
  readonly provider: { getTransactionReceipt(hash: string): Promise<{ status: number | null; blockNumber: number } | null> } | null;
}

export function fromEthers(signer: EthersSignerLike): WalletAdapter {
  return {
    getAddress: () => signer.getAddress(),
    sendTransaction: async (tx) =>
      (await signer.sendTransaction(tx.gasLimit === undefined ? { to: tx.to, data: tx.data, value: tx.value } : tx)).hash,
    getReceipt: async (hash) => {
      if (!signer.provider) throw new Error('the ethers signer has no provider: connect it (new Wallet(key, provider))');
      const r = await signer.provider.getTransactionReceipt(hash);
      return r ? { hash, status: r.status === 1 ? 'success' : 'reverted', blockNumber: BigInt(r.blockNumber) } : null;
    },
    signTypedData: (d) => signer.signTypedData(d.domain, d.types, d.message),
  };
}

// ---- viem ----

/** The parts of a viem WalletClient (with an account) the adapter uses. */
export interface ViemWalletLike {
  readonly account?: { readonly address: Hex } | undefined;
  readonly chain?: unknown;
  sendTransaction(args: {
    account: { readonly address: Hex };
    chain: never;
    to: Hex;
    data: Hex;
    value: bigint;
    gas?: bigint;
  }): Promise<Hex>;
  signTypedData(args: {
    account: { readonly address: Hex };
    domain: never;
    types: never;
    primaryType: never;
    message: never;
  }): Promise<Hex>;
}

/** The part of a viem PublicClient the adapter uses. */
export interface ViemPublicLike {
  getTransactionReceipt(args: { hash: Hex }): Promise<{ status: 'success' | 'reverted'; blockNumber: bigint }>;
}

export function fromViem(wallet: ViemWalletLike, publicClient: ViemPublicLike): WalletAdapter {
  const account = (): { readonly address: Hex } => {
    if (!wallet.account) throw new Error('the viem wallet client has no account: createWalletClient({ account, ... })');
    return wallet.account;
  };
  return {
    getAddress: async () => account().address,
    sendTransaction: (tx) =>
      wallet.sendTransaction({
        account: account(),
        chain: (wallet.chain ?? null) as never,
        to: tx.to as Hex,
        data: tx.data as Hex,
        value: tx.value,
        ...(tx.gasLimit === undefined ? {} : { gas: tx.gasLimit }),
      }),
    getReceipt: async (hash) => {
      try {
        const r = await publicClient.getTransactionReceipt({ hash: hash as Hex });
        return { hash, status: r.status, blockNumber: r.blockNumber };
      } catch (e) {
        if ((e as Error).name === 'TransactionReceiptNotFoundError') return null;
        throw e;
      }
    },
    signTypedData: (d) =>
      wallet.signTypedData({
        account: account(),
        domain: d.domain as never,
        types: d.types as never,
        primaryType: d.primaryType as never,
        message: d.message as never,
      }),
  };
}

/**
 * The API's typed data ({ domain, types, value }) as a signer takes it: EIP712Domain left out of
 * the types, and the primary type (the one no other type refers to) named.
 */
export function typedDataMessage(td: {
  domain: Record<string, unknown>;
  types: Record<string, unknown>;
  value: Record<string, unknown>;
}): TypedDataMessage {
  const types = Object.fromEntries(Object.entries(td.types).filter(([k]) => k !== 'EIP712Domain')) as Record<
    string,
    { name: string; type: string }[]
  >;
  const referenced = new Set(Object.values(types).flatMap((fields) => fields.map((f) => f.type.replace(/\[\d*\]$/, ''))));
  const roots = Object.keys(types).filter((t) => !referenced.has(t));
  if (roots.length !== 1) throw new Error(`typed data has ${roots.length} candidate primary types (${roots.join(', ')}); expected one`);
  return { domain: td.domain, types, primaryType: roots[0]!, message: td.value };
}
