import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { ProtocolAdapter } from '../indexing/port';

/** The network's native coin: one token row at the zero address; it has no events to read. */
export const nativeAdapter: ProtocolAdapter = {
  family: 'native',
  staticContracts: () => [],
  seed: async (platform) => [
    {
      kind: 'token',
      token: {
        address: ZERO_ADDRESS,
        platform: platform.slug,
        family: 'native',
        underlying: [],
        poolAddress: null,
        listed: true,
        metadata: {},
      },
    },
  ],
  discoveryHandlers: {},
  handlers: {},
  readScope: null,
};
