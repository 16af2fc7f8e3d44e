import type { NatsRpcClient } from '@tokensvc/transport';
import type { CallerInfo } from '../access/access-policy';

/** What a served endpoint handler gets besides its validated query. */
export interface CallContext {
  readonly rpc: NatsRpcClient;
  readonly caller: CallerInfo | undefined;
  readonly requestId: string;
}
