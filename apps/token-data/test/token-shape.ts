/** Shape checks of the spec's records, shared by the data surface e2e files. */

const TOKEN_FIELDS: Record<string, string> = {
  key: 'string',
  name: 'string',
  decimals: 'number',
  symbol: 'string',
  address: 'string',
  addresses: 'object',
  platform: 'string',
  network: 'string',
  price: 'number',
  images: 'string[]',
  updatedAt: 'date',
  createdAt: 'date',
  verifiedAt: 'date',
  tokens: 'string[]',
  poolAddress: 'string',
  liquidity: 'number',
  metrics: 'object',
  metadata: 'object',
  image: 'string',
  banner: 'string',
  customCmsImageUrl: 'string',
  totalSupply: 'uint',
  totalBorrow: 'uint',
  circulatingSupply: 'uint',
  reserves: 'string[]',
  pricePerShare: 'string',
  isClaimed: 'boolean',
  isPortable: 'boolean',
  block: 'block',
  historyFromBlock: 'block-or-null',
};
export const FREE_METRICS = ['apy', 'baseApy', 'rewardApy', 'borrowApy', 'baseBorrowApy', 'volumeUsd1d', 'volumeUsd7d'];
export const PAID_METRICS = [
  'price1d',
  'price7d',
  'liquidity1d',
  'liquidity7d',
  'apy1d',
  'apy7d',
  'borrowApy1d',
  'borrowApy7d',
  'liquidityDelta1d',
  'liquidityDelta7d',
  'priceDelta1d',
  'priceDelta7d',
  'apyDelta1d',
  'apyDelta7d',
  'borrowApyDelta1d',
  'borrowApyDelta7d',
];

/** Problems with one value against a type name of the tables above; empty when it fits. */
export function typeProblem(value: unknown, type: string): string | undefined {
  const ok = (() => {
    switch (type) {
      case 'string[]':
        return Array.isArray(value) && value.every((v) => typeof v === 'string');
      case 'date':
        return typeof value === 'string' && new Date(value).toISOString() === value;
      case 'uint':
        return typeof value === 'string' && /^\d+$/.test(value);
      case 'decimal':
        return typeof value === 'string' && /^-?\d+(\.\d+)?(e-?\d+)?$/.test(value);
      case 'object':
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      // the block a record is derived from (issue 23)
      case 'block': {
        const b = value as Record<string, unknown> | null;
        return (
          typeof b === 'object' &&
          b !== null &&
          Number.isInteger(b['number']) &&
          (b['hash'] === null || (typeof b['hash'] === 'string' && /^0x[0-9a-f]{64}$/.test(b['hash']))) &&
          typeof b['final'] === 'boolean' &&
          Object.keys(b).length === 3
        );
      }
      // the first block of a token's indexed events, or null when read since its creation (issue 18)
      case 'block-or-null':
        return value === null || (Number.isInteger(value) && (value as number) >= 0);
      default:
        return typeof value === type;
    }
  })();
  return ok ? undefined : `${JSON.stringify(value)} is not ${type}`;
}

/** Every problem of a record against a field table, as `field: problem` lines (exact key set). */
export function shapeProblems(rec: Record<string, unknown>, fields: Record<string, string>, label: string): string[] {
  const out: string[] = [];
  for (const [f, t] of Object.entries(fields)) {
    if (!(f in rec)) out.push(`${label}.${f}: missing`);
    else {
      const p = typeProblem(rec[f], t);
      if (p) out.push(`${label}.${f}: ${p}`);
    }
  }
  for (const f of Object.keys(rec)) if (!(f in fields)) out.push(`${label}.${f}: not in the spec`);
  return out;
}

/** Token record problems; `paid` says whether the paid-tier metrics must be present (true) or absent (false). */
export function tokenProblems(t: Record<string, unknown>, paid: boolean, extra: Record<string, string> = {}): string[] {
  const label = String(t['key']);
  const out = shapeProblems(t, { ...TOKEN_FIELDS, ...extra }, label);
  const metricFields = Object.fromEntries([...FREE_METRICS, ...(paid ? PAID_METRICS : [])].map((m) => [m, 'decimal']));
  if (typeof t['metrics'] === 'object' && t['metrics'])
    out.push(...shapeProblems(t['metrics'] as Record<string, unknown>, metricFields, `${label}.metrics`));
  if (t['key'] !== `${String(t['network'])}:${String(t['address'])}` || String(t['key']) !== String(t['key']).toLowerCase())
    out.push(`${label}: key is not lowercase <network>:<address>`);
  return out;
}
