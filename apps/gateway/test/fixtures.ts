import { PAID_METRIC_FIELDS, PUBLIC_METRIC_FIELDS, type Balance, type EndpointId, type Token } from '@tokensvc/api';

const ADDR = '0x1111111111111111111111111111111111111111';
const USDC = 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = 'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const DAI = 'ethereum:0x6b175474e89094c44da98b954eedeac495271d0f';

/** A token record with every field, including every paid metrics field. */
export const TOKEN: Token = {
  key: USDC,
  name: 'USD Coin',
  decimals: 6,
  symbol: 'USDC',
  address: USDC.split(':')[1]!,
  addresses: {},
  platform: 'basic',
  network: 'ethereum',
  price: 1,
  images: [],
  updatedAt: '2025-01-01T00:00:00.000Z',
  createdAt: '2025-01-01T00:00:00.000Z',
  verifiedAt: '2025-01-01T00:00:00.000Z',
  tokens: [],
  poolAddress: '',
  liquidity: 1_000_000,
  metrics: Object.fromEntries([...PUBLIC_METRIC_FIELDS, ...PAID_METRIC_FIELDS].map((f, i) => [f, String(i)])) as Token['metrics'],
  metadata: {},
  image: '',
  banner: '',
  customCmsImageUrl: '',
  totalSupply: '1000',
  totalBorrow: '0',
  circulatingSupply: '1000',
  reserves: [],
  pricePerShare: '1',
  isClaimed: false,
  isPortable: true,
  block: { number: 19_000_000, hash: `0x${'ef'.repeat(32)}`, final: false },
  historyFromBlock: null,
};

export const BALANCE: Balance = { ...TOKEN, balance: 1.5, balanceUSD: 1.5, rawBalance: '1500000' };

/** A valid request per endpoint (method and query), so every route can be driven. */
export const SAMPLE: Record<EndpointId, { method?: 'POST' | 'DELETE'; query: string }> = {
  listTokens: { query: 'limit=10&networks=ethereum' },
  listNetworks: { query: '' },
  listPlatforms: { query: 'type=dex' },
  account: { query: `owner=${ADDR}&networks=ethereum&networks=base` },
  tokenHistory: { query: `id=${USDC}&resolution=1h` },
  tokenTransactions: { query: `id=${USDC}&limit=10` },
  tokenMetrics: { query: `id=${USDC}` },
  tokenHolders: { query: `id=${USDC}&limit=100&page=1` },
  portal: { query: `sender=${ADDR}&inputToken=${USDC}&inputAmount=1000000&outputToken=${WETH}` },
  portalSubmit: { method: 'POST', query: `orderId=order-1&signature=0x${'ab'.repeat(65)}` },
  portalStatus: { query: 'orderId=order-1' },
  crossChainStatus: { query: `orderId=order-1&txHash=0x${'cd'.repeat(32)}` },
  crossChainStatusStream: { query: `orderId=order-1&txHash=0x${'cd'.repeat(32)}` },
  webhookRegister: {
    method: 'POST',
    query: `orderId=order-1&txHash=0x${'cd'.repeat(32)}&url=${encodeURIComponent('https://hooks.example.com/tokensvc')}`,
  },
  webhookList: { query: `orderId=order-1&txHash=0x${'cd'.repeat(32)}&ownerToken=0x${'ef'.repeat(32)}` },
  webhookDelete: { method: 'DELETE', query: `id=0b5e4d3c-2a19-4f08-9e7d-6c5b4a392817&ownerToken=0x${'ef'.repeat(32)}` },
  estimate: { query: `inputToken=${USDC}&inputAmount=1000000&outputToken=${WETH}` },
  portalMulti: {
    query: `sender=${ADDR}&inputTokens=${USDC}&inputTokens=${DAI}&inputAmounts=1000000&inputAmounts=2000000000000000000&outputToken=${WETH}`,
  },
  estimateMulti: { query: `inputTokens=${USDC},${DAI}&inputAmounts=1000000,2000000000000000000&outputToken=${WETH}` },
  approval: { query: `sender=${ADDR}&inputToken=${USDC}&inputAmount=1000000&outputToken=${WETH}` },
  approvalCrossChain: {
    query: `sender=${ADDR}&inputToken=${USDC}&inputAmount=1000000&outputToken=base:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913`,
  },
  health: { query: '' },
};
