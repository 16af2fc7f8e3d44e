import type { Network } from '@tokensvc/domain';
import type { DecodedBatch } from '../model/decoded-batch';
import type { DerivationStage } from '../model/derivation.port';
import type { SqlTx } from '../model/sql-tx';

/** A DerivationStage for tests of the ingest pipeline: records what it was given, derives nothing. */
export class RecordingDerivation implements DerivationStage {
  readonly batches: DecodedBatch[] = [];
  readonly rollbacks: Array<{ network: Network; ancestor: number }> = [];
  readonly headRefreshes: Array<{ network: Network; blockNumber: number }> = [];

  async applyBatch(_tx: SqlTx, batch: DecodedBatch): Promise<void> {
    this.batches.push(batch);
  }
  async rollback(_tx: SqlTx, network: Network, ancestor: number): Promise<void> {
    this.rollbacks.push({ network, ancestor });
  }
  async refreshHead(network: Network, blockNumber: number): Promise<void> {
    this.headRefreshes.push({ network, blockNumber });
  }
}
