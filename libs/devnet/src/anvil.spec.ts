import { DEVNET_BLOCK_GAS_LIMIT, anvilArgs } from './anvil';

describe('anvilArgs', () => {
  it('always passes the chain id and history pruning', () => {
    const args = anvilArgs({ host: '127.0.0.1', port: 8546, chainId: 42161, loadState: '/s/arbitrum.state.json' });
    expect(args.join(' ')).toContain('--host 127.0.0.1 --port 8546 --chain-id 42161');
    expect(args).toContain('--prune-history');
    expect(args.join(' ')).toContain(`--gas-limit ${DEVNET_BLOCK_GAS_LIMIT}`);
    expect(args.join(' ')).toContain('--load-state /s/arbitrum.state.json');
    expect(args).not.toContain('--no-mining');
  });

  it('configures the cold builder: past genesis, manual mining in arrival order', () => {
    const args = anvilArgs({
      host: '127.0.0.1',
      port: 8545,
      chainId: 1,
      timestamp: 1_700_000_000,
      noMining: true,
      extraArgs: ['--auto-impersonate'],
    }).join(' ');
    expect(args).toContain('--timestamp 1700000000');
    expect(args).toContain('--no-mining --order fifo');
    expect(args).toContain('--auto-impersonate');
  });

  it('keeps past states in memory when asked (eth_call at a past block)', () => {
    expect(anvilArgs({ host: 'h', port: 1, chainId: 1, historyStates: 256 }).join(' ')).toContain('--prune-history 256');
  });

  it('supports interval mining', () => {
    expect(anvilArgs({ host: 'h', port: 1, chainId: 1, blockTime: 2 }).join(' ')).toContain('--block-time 2');
  });
});
