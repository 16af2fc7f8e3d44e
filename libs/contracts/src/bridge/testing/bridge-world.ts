/**
 * Fixture of the bridge contract tests: two private anvils with different chain ids (the origin
 * and the destination of the requests), each with both bridge contracts and one 6-decimal ERC-20.
 */
import { Contract, ContractFactory, JsonRpcProvider, type TransactionReceipt, type TransactionRequest, Wallet, keccak256, parseEther, toBeHex, toUtf8Bytes } from 'ethers';
import { loadArtifact } from '../../local-artifacts';
import { type PrivateAnvil, startPrivateAnvil } from '../../router/testing/private-anvil';
import { sendRaw } from '../../router/testing/reverts';
import { bridgeEscrowInterface, bridgeSettlerInterface } from '../abi';
import { type DecodedBridgeError, decodeBridgeError, deployBridge } from '../bridge';

export interface BridgeChain {
  anvil: PrivateAnvil;
  provider: JsonRpcProvider;
  chainId: bigint;
  escrow: Contract;
  settler: Contract;
  /** 6 decimals, minted to the user and the filler */
  token: Contract;
  /** timestamp of the latest block (the clock the contracts check deadlines against) */
  now(): Promise<bigint>;
  /** moves the chain's clock forward and mines a block at the new time */
  increaseTime(seconds: bigint): Promise<void>;
  balanceOf(token: Contract | 'native', owner: string): Promise<bigint>;
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
}

/** One person with one key on both chains. */
export interface Actor {
  address: string;
  on(chain: BridgeChain): Wallet;
}

export interface BridgeWorld {
  origin: BridgeChain;
  destination: BridgeChain;
  deployer: Actor;
  attester: Actor;
  user: Actor;
  filler: Actor;
  stranger: Actor;
  stop(): Promise<void>;
}

export const TOKEN_SUPPLY = 1_000_000_000_000n; // 1M with 6 decimals

async function startChain(chainId: number, actors: Actor[], deployer: Actor, attester: Actor): Promise<BridgeChain> {
  const anvil = await startPrivateAnvil(chainId);
  const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  provider.pollingInterval = 20;
  const chain = { anvil, provider, chainId: BigInt(chainId) } as BridgeChain;
  for (const a of actors) await provider.send('anvil_setBalance', [a.address, toBeHex(parseEther('1000'))]);
  const wallet = deployer.on(chain);
  const deployed = await deployBridge(wallet, attester.address);
  const erc20 = loadArtifact('TestERC20');
  const token = (await new ContractFactory(erc20.abi, erc20.bytecode, wallet).deploy(`USD ${chainId}`, 'USD', 6, deployer.address)) as Contract;
  await token.waitForDeployment();
  await (await token.getFunction('mintMany')(actors.map((a) => a.address), actors.map(() => TOKEN_SUPPLY))).wait();
  const now = async () => BigInt((await provider.getBlock('latest'))!.timestamp);
  return Object.assign(chain, {
    escrow: new Contract(deployed.escrow, bridgeEscrowInterface(), provider),
    settler: new Contract(deployed.settler, bridgeSettlerInterface(), provider),
    token,
    now,
    async increaseTime(seconds: bigint) {
      await provider.send('evm_increaseTime', [toBeHex(seconds)]);
      await provider.send('evm_mine', []);
    },
    async balanceOf(t: Contract | 'native', owner: string) {
      return t === 'native' ? provider.getBalance(owner) : ((await t.getFunction('balanceOf')(owner)) as bigint);
    },
    snapshot: () => provider.send('evm_snapshot', []) as Promise<string>,
    async revert(id: string) {
      await provider.send('evm_revert', [id]);
    },
  });
}

function actor(label: string): Actor {
  const key = keccak256(toUtf8Bytes(`bridge-test/${label}`));
  return { address: new Wallet(key).address, on: (chain) => new Wallet(key, chain.provider) };
}

export async function startBridgeWorld(originChainId = 1, destinationChainId = 8453): Promise<BridgeWorld> {
  const [deployer, attester, user, filler, stranger] = ['deployer', 'attester', 'user', 'filler', 'stranger'].map(actor) as [Actor, Actor, Actor, Actor, Actor];
  const actors = [deployer, attester, user, filler, stranger];
  const origin = await startChain(originChainId, actors, deployer, attester);
  const destination = await startChain(destinationChainId, actors, deployer, attester).catch(async (err: unknown) => {
    await origin.anvil.stop();
    throw err;
  });
  return {
    origin,
    destination,
    deployer,
    attester,
    user,
    filler,
    stranger,
    async stop() {
      for (const c of [origin, destination]) {
        c.provider.destroy();
        await c.anvil.stop();
      }
    },
  };
}

/** Runs `tx` with eth_call and returns its decoded revert; throws when it does not revert. */
export async function bridgeRevertOf(provider: JsonRpcProvider, tx: TransactionRequest): Promise<DecodedBridgeError> {
  try {
    await provider.call(tx);
  } catch (err) {
    const data = (err as { data?: string }).data;
    const decoded = data ? decodeBridgeError(data) : undefined;
    if (!decoded) throw new Error(`reverted with undecodable data ${data ?? '(none)'}: ${(err as Error).message}`);
    return decoded;
  }
  throw new Error('expected the call to revert, it succeeded');
}

/** Sends `tx` and expects it to succeed. */
export async function sendOk(wallet: Wallet, tx: TransactionRequest): Promise<TransactionReceipt> {
  const receipt = await sendRaw(wallet, tx);
  if (receipt.status !== 1) {
    const reason = await bridgeRevertOf(wallet.provider as JsonRpcProvider, { ...tx, from: wallet.address }).catch((e: Error) => e.message);
    throw new Error(`transaction reverted: ${JSON.stringify(reason, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }
  return receipt;
}

/** Sends `tx` expecting it to revert on chain (mined with status 0) with the error `name`. */
export async function sendReverts(wallet: Wallet, tx: TransactionRequest, name: string): Promise<void> {
  const decoded = await bridgeRevertOf(wallet.provider as JsonRpcProvider, { ...tx, from: wallet.address });
  if (decoded.name !== name) throw new Error(`expected ${name}, got ${decoded.name}`);
  const receipt = await sendRaw(wallet, tx);
  if (receipt.status !== 0) throw new Error(`expected the transaction to fail on chain, it succeeded`);
}
