/** An EVM log as eth_getLogs returns it, numbers decoded (the chain client's `RpcLog`). */
export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  blockHash: string;
  logIndex: number;
  transactionHash: string;
}
