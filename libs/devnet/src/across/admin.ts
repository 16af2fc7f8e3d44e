/**
 * The HubPool's messages on the devnet: whoever each chain-specific SpokePool accepts admin calls
 * (`relayRootBundle`) from, impersonated on anvil.
 * - Ethereum_SpokePool: its owner (ethereum's deployer, an unlocked anvil account).
 * - Arbitrum_SpokePool: the L1-to-L2 alias of its cross-domain admin (address + 0x1111…1111),
 *   as the Arbitrum inbox delivers an L1 contract's message.
 * - OP_SpokePool: the L2CrossDomainMessenger predeploy, whose `xDomainMessageSender()` must be the
 *   cross-domain admin; the devnet build installs a stub answering that (re-installed here if absent).
 */
import { Interface, JsonRpcSigner, type JsonRpcProvider, getAddress, parseEther, toBeHex } from 'ethers';
import { ACROSS_SPOKE_POOL, OP_L2_MESSENGER, messengerStubCode } from '../deploy/across';
import { type AcrossNetwork, spokePoolInterface } from './spoke';

const ARBITRUM_ALIAS_OFFSET = 0x1111000000000000000000000000000000001111n;
const OWNABLE = new Interface(['function owner() view returns (address)', 'function xDomainMessageSender() view returns (address)']);

export function applyL1ToL2Alias(l1Address: string): string {
  return getAddress(toBeHex((BigInt(l1Address) + ARBITRUM_ALIAS_OFFSET) % 2n ** 160n, 20));
}

async function view(provider: JsonRpcProvider, iface: Interface, to: string, fn: string): Promise<string> {
  return getAddress(String(iface.decodeFunctionResult(fn, await provider.call({ to, data: iface.encodeFunctionData(fn, []) }))[0]));
}

async function impersonate(provider: JsonRpcProvider, address: string): Promise<JsonRpcSigner> {
  await provider.send('anvil_impersonateAccount', [address]);
  if ((await provider.getBalance(address)) < parseEther('1')) await provider.send('anvil_setBalance', [address, toBeHex(parseEther('10'))]);
  return new JsonRpcSigner(provider, address);
}

/** A signer the network's SpokePool takes admin calls from (the HubPool's message, as delivered there). */
export async function hubPoolSigner(provider: JsonRpcProvider, net: AcrossNetwork): Promise<JsonRpcSigner> {
  const flavour = ACROSS_SPOKE_POOL[net.network];
  const admin = await view(provider, spokePoolInterface(), net.spokePool, 'crossDomainAdmin');
  switch (flavour) {
    case 'Ethereum_SpokePool':
      return impersonate(provider, await view(provider, OWNABLE, net.spokePool, 'owner'));
    case 'Arbitrum_SpokePool':
      return impersonate(provider, applyL1ToL2Alias(admin));
    case 'OP_SpokePool': {
      const sender = await view(provider, OWNABLE, OP_L2_MESSENGER, 'xDomainMessageSender').catch(() => undefined);
      if (sender !== admin) await provider.send('anvil_setCode', [OP_L2_MESSENGER, messengerStubCode(admin)]);
      return impersonate(provider, OP_L2_MESSENGER);
    }
    default:
      throw new Error(`no Across SpokePool flavour for ${net.network}`);
  }
}
