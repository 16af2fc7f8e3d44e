import type { RpcLog } from '@tokensvc/domain';
import type { IndexingSink } from '../indexing/port';
import { topicAddress, uintWord } from '../indexing/hex';
import { ERC4626_EVENTS } from './events';
import type { Discovery } from '../indexing/registry-types';
import { roleList, underlyingToken } from '../indexing/adapter-helpers';
import type { ProtocolAdapter } from '../indexing/port';

const isVault = (log: RpcLog, acc: IndexingSink): boolean => acc.registry.tokens.get(log.address)?.family === 'erc4626';

/**
 * ERC-4626 vaults from the platform's vault list (`vaults.0..n`): share tokens whose underlying is
 * asset() (read at the head), with Deposit/Withdraw flows.
 */
export const erc4626Adapter: ProtocolAdapter = {
  family: 'erc4626',
  staticContracts: () => [],
  seed: async (platform, ctx) => {
    const vaults = roleList(platform, 'vaults');
    const assets = await ctx.readVaultAssets(vaults);
    const out: Discovery[] = [];
    for (const vault of vaults) {
      const asset = assets.get(vault);
      if (asset === undefined)
        throw new Error(
          `${platform.network}/${platform.slug}: vault ${vault} has no asset() (not an ERC-4626 vault, or not deployed at the RPC's head)`,
        );
      out.push(underlyingToken(asset));
      out.push({
        kind: 'token',
        token: {
          address: vault,
          platform: platform.slug,
          family: 'erc4626',
          underlying: [asset],
          poolAddress: vault,
          listed: true,
          metadata: { asset },
        },
      });
    }
    return out;
  },
  discoveryHandlers: {},
  handlers: {
    [ERC4626_EVENTS.vaultDeposit]: (log, acc) => {
      if (!isVault(log, acc)) return;
      acc.vaultFlows.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        vault: log.address,
        kind: 'deposit',
        account: topicAddress(log.topics[2]),
        assets: uintWord(log.data, 0),
        shares: uintWord(log.data, 1),
      });
    },
    [ERC4626_EVENTS.vaultWithdraw]: (log, acc) => {
      if (!isVault(log, acc)) return;
      acc.vaultFlows.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        vault: log.address,
        kind: 'withdraw',
        account: topicAddress(log.topics[3]),
        assets: uintWord(log.data, 0),
        shares: uintWord(log.data, 1),
      });
    },
  },
  readScope: null,
};
