import { ENDPOINTS } from '../endpoints';
import { parseQuery, QueryError } from './query';

const USDC = 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = 'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const ADDR = '0x1111111111111111111111111111111111111111';

function problem(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (e instanceof QueryError) return e.message;
    throw e;
  }
  throw new Error('expected a QueryError');
}

describe('parseQuery', () => {
  const tokens = ENDPOINTS.listTokens.query;

  it('applies defaults and returns typed values', () => {
    expect(parseQuery(tokens, {})).toEqual({ sortDirection: 'asc', limit: 25, page: 0, maxApy: 1e6 });
    const q = parseQuery(tokens, { limit: '250', page: '3', minLiquidity: '1e3', isPortable: 'false', sortBy: 'volumeUsd7d' });
    expect(q).toMatchObject({ limit: 250, page: 3, minLiquidity: 1000, isPortable: false, sortBy: 'volumeUsd7d' });
  });

  it('normalises token keys and keeps every element, repeats included', () => {
    const q = parseQuery(tokens, { ids: `${USDC.toUpperCase().replace('0X', '0x')},${USDC}` });
    expect(q.ids).toEqual([USDC, USDC]);
    expect(parseQuery(tokens, { networks: ['ethereum', 'base,ethereum'] }).networks).toEqual(['ethereum', 'base', 'ethereum']);
  });

  it('keeps repeated list elements on a multi-input order, so lists pair up and the repeated-token rule fires', () => {
    const LINK = 'ethereum:0x514910771af9ca656af840dff83e8264ecf986ca';
    const DAI = 'ethereum:0x6b175474e89094c44da98b954eedfa2cae4a6a0e';
    const multi = ENDPOINTS.estimateMulti.query;
    const ok = parseQuery(multi, { inputTokens: `${USDC},${LINK}`, inputAmounts: '1000000000000000,1000000000000000', outputToken: WETH });
    expect(ok.inputAmounts).toEqual([1000000000000000n, 1000000000000000n]);
    expect(
      problem(() =>
        parseQuery(multi, {
          inputTokens: `${USDC},${DAI},${USDC}`,
          inputAmounts: '1000000,2000000000000000000,1000000',
          outputToken: WETH,
        }),
      ),
    ).toMatch(`inputTokens repeats ${USDC}: give each token once`);
  });

  it('reads list parameters in the declared style', () => {
    expect(parseQuery(tokens, { networks: ['ethereum', 'base,arbitrum'] }).networks).toEqual(['ethereum', 'base', 'arbitrum']);
    expect(problem(() => parseQuery(tokens, { ids: [USDC, WETH] }))).toMatch(
      /^invalid ids "ethereum:0x.*": ids must be given once, as a comma-separated list$/,
    );
    expect(problem(() => parseQuery(tokens, { networks: 'ethereum,,base' }))).toMatch(/element "" must be one of ethereum, optimism/);
    expect(problem(() => parseQuery(tokens, { ids: Array(251).fill(USDC).join(',') }))).toMatch(/at most 250 values are accepted, got 251/);
  });

  it('names unknown parameters and lists the accepted ones', () => {
    expect(problem(() => parseQuery(ENDPOINTS.tokenMetrics.query, { id: USDC, foo: '1', bar: '2' }))).toBe(
      'unknown query parameters "foo", "bar"; accepted: id',
    );
    expect(problem(() => parseQuery(ENDPOINTS.listNetworks.query, { x: '' }))).toBe(
      'unknown query parameter "x"; this endpoint takes no parameters',
    );
    // An own "__proto__" key (as a query parser or JSON.parse makes it) is just an unknown name.
    expect(problem(() => parseQuery(ENDPOINTS.listNetworks.query, JSON.parse('{"__proto__":"1"}')))).toBe(
      'unknown query parameter "__proto__"; this endpoint takes no parameters',
    );
  });

  it('lets the liveness probe ignore any query (cache-busters) while other endpoints refuse unknown names', () => {
    expect(parseQuery(ENDPOINTS.health.query, { _: '1732600000000', t: 'x' })).toEqual({});
    expect(
      problem(() => parseQuery(ENDPOINTS.health.query, Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, '1'])))),
    ).toMatch(/too many query parameters/);
    expect(problem(() => parseQuery(ENDPOINTS.listNetworks.query, { _: '1' }))).toMatch(/unknown query parameter "_"/);
  });

  it('names missing required parameters with what they accept', () => {
    expect(problem(() => parseQuery(ENDPOINTS.tokenHistory.query, {}))).toMatch(
      /^missing required query parameter id: a token key <network>:<0x address>/,
    );
  });

  it('reports every problem at once, each naming the parameter and the accepted values', () => {
    const msg = problem(() => parseQuery(tokens, { limit: '0', sortBy: 'size', sortDirection: 'up', isVerified: 'yes' }));
    expect(msg.split('; ')).toEqual([
      'invalid sortBy "size": must be one of key, decimals, name, symbol, updatedAt, price, liquidity, platform, network, apy, volumeUsd1d, volumeUsd7d, createdAt, verifiedAt',
      'invalid sortDirection "up": must be one of asc, desc',
      'invalid limit "0": must be an integer from 1 to 250',
      'invalid isVerified "yes": must be true or false',
    ]);
  });

  it('is strict about numbers', () => {
    for (const bad of ['1.5', '1e3', ' 1', '', '0x10', '+', '1_0', '９'])
      expect(problem(() => parseQuery(tokens, { limit: bad }))).toMatch(/invalid limit/);
    for (const bad of ['1e309', 'NaN', 'Infinity', '1,5', '--1'])
      expect(problem(() => parseQuery(tokens, { minApy: bad }))).toMatch(/invalid minApy/);
    expect(parseQuery(tokens, { minApy: '-.5' }).minApy).toBe(-0.5);
  });

  it('refuses a value given twice where one is expected', () => {
    expect(problem(() => parseQuery(tokens, { limit: ['1', '2'] }))).toBe('invalid limit "1,2": limit must be given once, got it 2 times');
  });

  it('applies cross-parameter rules', () => {
    expect(problem(() => parseQuery(tokens, { page: '2' }))).toBe('limit must also be given when page is given');
    expect(problem(() => parseQuery(tokens, { minLiquidity: '10', maxLiquidity: '5' }))).toBe(
      'minLiquidity (10) must not exceed maxLiquidity (5)',
    );
    expect(problem(() => parseQuery(ENDPOINTS.tokenHolders.query, { id: USDC, page: '1' }))).toBe(
      'limit must also be given when page is given',
    );
    expect(parseQuery(ENDPOINTS.tokenHolders.query, { id: USDC })).toEqual({ id: USDC, limit: 100, page: 0 });
    // finality (issue 23): latest (the default, left to token-data) or finalized on every data endpoint
    for (const id of ['listTokens', 'tokenHistory', 'tokenHolders', 'account'] as const) {
      const base = id === 'listTokens' ? {} : id === 'account' ? { owner: `0x${'1'.repeat(40)}`, networks: 'ethereum' } : { id: USDC };
      expect(parseQuery(ENDPOINTS[id].query, { ...base, finality: 'finalized' })).toMatchObject({ finality: 'finalized' });
      expect(problem(() => parseQuery(ENDPOINTS[id].query, { ...base, finality: 'final' }))).toMatch(
        /finality.*must be one of latest, finalized/,
      );
    }
    expect(problem(() => parseQuery(ENDPOINTS.tokenHolders.query, { id: USDC, limit: '99' }))).toMatch(/from 100 to 1000/);
  });

  it('accepts and drops the parameters the spec lists as ignored', () => {
    expect(
      parseQuery(ENDPOINTS.account.query, { owner: ADDR.toUpperCase().replace('0X', '0x'), networks: 'base', limit: 'x', page: '7' }),
    ).toEqual({ owner: ADDR, networks: ['base'] });
  });

  it('checks history timestamps against the one-year lookback with the spec message', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(parseQuery(ENDPOINTS.tokenHistory.query, { id: USDC, from: String(now - 3600) })).toMatchObject({
      from: now - 3600,
      resolution: '1d',
      page: 0,
    });
    expect(problem(() => parseQuery(ENDPOINTS.tokenHistory.query, { id: USDC, from: String(now - 366 * 86400) }))).toMatch(
      /the timestamp is not valid, must be newer than one year ago/,
    );
    expect(problem(() => parseQuery(ENDPOINTS.tokenHistory.query, { id: USDC, from: String(now + 3600) }))).toMatch(
      /must not be in the future/,
    );
  });

  it('parses uint256 amounts as bigint within range', () => {
    const base = { sender: ADDR, inputToken: USDC, outputToken: WETH };
    expect(parseQuery(ENDPOINTS.portal.query, { ...base, inputAmount: String(2n ** 256n - 1n) }).inputAmount).toBe(2n ** 256n - 1n);
    expect(problem(() => parseQuery(ENDPOINTS.portal.query, { ...base, inputAmount: String(2n ** 256n) }))).toMatch(/invalid inputAmount/);
    expect(problem(() => parseQuery(ENDPOINTS.portal.query, { ...base, inputAmount: '0' }))).toMatch(/positive whole number/);
    expect(parseQuery(ENDPOINTS.portal.query, { ...base, inputAmount: '5' }).validate).toBe(true);
  });

  it('applies the order rules: distinct tokens, partner with a fee, no permit cross-chain', () => {
    const base = { sender: ADDR, inputToken: USDC, inputAmount: '1' };
    expect(problem(() => parseQuery(ENDPOINTS.portal.query, { ...base, outputToken: USDC }))).toBe(
      'inputToken and outputToken must differ',
    );
    expect(problem(() => parseQuery(ENDPOINTS.portal.query, { ...base, outputToken: WETH, feePercentage: '0.5' }))).toBe(
      'partner must also be given when feePercentage is given',
    );
    const permit = `0x${'ab'.repeat(65)}`;
    expect(parseQuery(ENDPOINTS.portal.query, { ...base, outputToken: WETH, permitSignature: permit }).permitSignature).toBe(permit);
    expect(
      problem(() =>
        parseQuery(ENDPOINTS.portal.query, {
          ...base,
          outputToken: 'base:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
          permitSignature: permit,
        }),
      ),
    ).toMatch(/not accepted on cross-chain orders/);
    expect(problem(() => parseQuery(ENDPOINTS.portal.query, { ...base, outputToken: WETH, slippageTolerancePercentage: '11' }))).toMatch(
      /from 0.1 to 10/,
    );
  });

  it('refuses the native token on the approval check', () => {
    expect(
      problem(() =>
        parseQuery(ENDPOINTS.approval.query, {
          sender: ADDR,
          inputToken: 'ethereum:0x0000000000000000000000000000000000000000',
          inputAmount: '1',
        }),
      ),
    ).toMatch(/native token, which needs no approval/);
  });

  it('refuses control characters and over-long strings', () => {
    expect(problem(() => parseQuery(tokens, { search: 'a\u0000b' }))).toMatch(/invalid search/);
    expect(problem(() => parseQuery(tokens, { search: 'x'.repeat(129) }))).toMatch(/at most 128 characters/);
    expect(parseQuery(tokens, { search: 'Ünïcødé 💥' }).search).toBe('Ünïcødé 💥');
  });

  it('takes a single value exactly as sent and trims only list elements', () => {
    // One rule for every parameter: whitespace around list separators is dropped, any other is refused with a message.
    expect(parseQuery(tokens, { networks: 'ethereum ' }).networks).toEqual(['ethereum']);
    expect(parseQuery(tokens, { networks: 'ethereum, base', ids: ` ${USDC} , ${WETH}` })).toMatchObject({
      networks: ['ethereum', 'base'],
      ids: [USDC, WETH],
    });
    expect(problem(() => parseQuery(tokens, { limit: ' 10' }))).toBe(
      'invalid limit " 10": must be an integer from 1 to 250, without leading or trailing whitespace',
    );
    expect(problem(() => parseQuery(tokens, { sortDirection: 'desc ' }))).toMatch(
      /^invalid sortDirection "desc ": must be one of asc, desc, without leading or trailing whitespace$/,
    );
    expect(problem(() => parseQuery(ENDPOINTS.tokenMetrics.query, { id: ` ${USDC}` }))).toMatch(
      /^invalid id .*without leading or trailing whitespace$/,
    );
    expect(problem(() => parseQuery(ENDPOINTS.account.query, { owner: `${ADDR}\t`, networks: 'base' }))).toMatch(
      /^invalid owner .*without leading or trailing whitespace$/,
    );
    expect(problem(() => parseQuery(tokens, { search: 'usd ' }))).toMatch(/without leading or trailing whitespace/);
  });

  it('refuses an address with a wrong EIP-55 checksum and accepts all-lower and all-upper ones', () => {
    const good = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'; // USDC, checksummed
    const bad = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eb48'; // one letter's case flipped
    const owner = (o: string) => parseQuery(ENDPOINTS.account.query, { owner: o, networks: 'base' }).owner;
    expect(owner(good)).toBe(good.toLowerCase());
    expect(owner(good.toLowerCase())).toBe(good.toLowerCase());
    expect(owner(`0x${good.slice(2).toUpperCase()}`)).toBe(good.toLowerCase());
    expect(problem(() => owner(bad))).toBe(
      `invalid owner "${bad}": has a wrong EIP-55 checksum (mixed case); the checksummed form is 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48, or send it all in lower case`,
    );
    // Token keys carry an address too, single or in a list.
    expect(parseQuery(ENDPOINTS.tokenMetrics.query, { id: `ethereum:${good}` }).id).toBe(USDC);
    expect(problem(() => parseQuery(ENDPOINTS.tokenMetrics.query, { id: `ethereum:${bad}` }))).toMatch(
      /^invalid id ".*": address has a wrong EIP-55 checksum/,
    );
    expect(problem(() => parseQuery(tokens, { ids: `${USDC},ethereum:${bad}` }))).toMatch(
      /element ".*" address has a wrong EIP-55 checksum/,
    );
    const base = { sender: good, inputToken: USDC, inputAmount: '1', outputToken: WETH };
    expect(problem(() => parseQuery(ENDPOINTS.portal.query, { ...base, partner: bad }))).toMatch(
      /^invalid partner .*wrong EIP-55 checksum/,
    );
  });

  it('caps every value before a pattern runs: 16 kB adversarial values are refused in linear time', () => {
    const adversarial = [
      '1'.repeat(16_000) + 'x',
      `0x${'a'.repeat(16_000)}`,
      `${'1.'.repeat(8_000)}x`,
      `.${'1'.repeat(16_000)}e`,
      `ethereum:${'0x'.repeat(8000)}`,
      `2024-01-01T${'1'.repeat(16_000)}`,
    ];
    const started = process.cpuUsage();
    for (const v of adversarial) {
      expect(problem(() => parseQuery(tokens, { minApy: v }))).toMatch(/^invalid minApy/);
      expect(
        problem(() =>
          parseQuery(ENDPOINTS.estimate.query, { inputToken: USDC, outputToken: WETH, inputAmount: '1', slippageTolerancePercentage: v }),
        ),
      ).toMatch(/^invalid slippageTolerancePercentage/);
    }
    const used = process.cpuUsage(started);
    // The quadratic number pattern took ~1 s on the first string alone.
    expect((used.user + used.system) / 1000).toBeLessThan(50);
  });

  it('takes numbers and booleans from a JSON body but not objects', () => {
    expect(parseQuery(tokens, { limit: 10, isPortable: true })).toMatchObject({ limit: 10, isPortable: true });
    expect(problem(() => parseQuery(tokens, { limit: { $gt: 1 } }))).toBe('invalid limit: must be an integer from 1 to 250');
  });
});
