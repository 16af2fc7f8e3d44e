/**
 * Relayer refund leaves and their Merkle tree, as the SpokePool checks them: MerkleLib's
 * `verifyRelayerRefund` is OpenZeppelin's `MerkleProof.verify(proof, root, keccak256(abi.encode(leaf)))`,
 * whose pairs are hashed sorted (commutative keccak256), so a proof is just the sibling hashes.
 */
import { AbiCoder, concat, keccak256 } from 'ethers';

export interface RelayerRefundLeaf {
  /** sent back to the HubPool over the canonical bridge; always 0 on the devnet (there is no HubPool) */
  amountToReturn: bigint;
  chainId: bigint;
  refundAmounts: bigint[];
  /** unique within the root */
  leafId: number;
  l2TokenAddress: string;
  refundAddresses: string[];
}

const LEAF_TYPE =
  'tuple(uint256 amountToReturn, uint256 chainId, uint256[] refundAmounts, uint32 leafId, address l2TokenAddress, address[] refundAddresses)';

/** keccak256(abi.encode(leaf)): the struct is dynamic, so its encoding starts with its offset, as Solidity's does. */
export function refundLeafHash(leaf: RelayerRefundLeaf): string {
  return keccak256(
    AbiCoder.defaultAbiCoder().encode(
      [LEAF_TYPE],
      [[leaf.amountToReturn, leaf.chainId, leaf.refundAmounts, leaf.leafId, leaf.l2TokenAddress, leaf.refundAddresses]],
    ),
  );
}

function hashPair(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? keccak256(concat([a, b])) : keccak256(concat([b, a]));
}

/** Sorted-pair Merkle tree; an odd node at the end of a level moves up unchanged. */
export class MerkleTree {
  private readonly levels: string[][];

  constructor(leafHashes: readonly string[]) {
    if (leafHashes.length === 0) throw new Error('a Merkle tree needs at least one leaf');
    this.levels = [[...leafHashes]];
    while (this.levels[this.levels.length - 1]!.length > 1) {
      const level = this.levels[this.levels.length - 1]!;
      const next: string[] = [];
      for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? hashPair(level[i]!, level[i + 1]!) : level[i]!);
      this.levels.push(next);
    }
  }

  get root(): string {
    return this.levels[this.levels.length - 1]![0]!;
  }

  proof(index: number): string[] {
    const proof: string[] = [];
    for (const level of this.levels.slice(0, -1)) {
      const sibling = index ^ 1;
      if (sibling < level.length) proof.push(level[sibling]!);
      index = Math.floor(index / 2);
    }
    return proof;
  }

  static verify(proof: readonly string[], root: string, leaf: string): boolean {
    return proof.reduce((hash, sibling) => hashPair(hash, sibling), leaf) === root;
  }
}
