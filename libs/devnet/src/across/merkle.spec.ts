import { AbiCoder, ZeroAddress, concat, id, keccak256 } from 'ethers';
import { buildLeaves, type BundlePayment } from './dataworker';
import { MerkleTree, refundLeafHash } from './merkle';
import type { AcrossDeposit } from './spoke';

describe('Across refund leaves and their Merkle tree', () => {
  it('proves every leaf of trees of 1 to 9 leaves against the root, with sorted-pair hashing', () => {
    for (let n = 1; n <= 9; n++) {
      const leaves = Array.from({ length: n }, (_, i) => id(`leaf ${i}`));
      const tree = new MerkleTree(leaves);
      leaves.forEach((leaf, i) => expect(MerkleTree.verify(tree.proof(i), tree.root, leaf)).toBe(true));
      if (n > 1) expect(MerkleTree.verify(tree.proof(0), tree.root, id('not a leaf'))).toBe(false);
    }
    const [a, b] = [id('a'), id('b')];
    const sorted = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    expect(new MerkleTree([a, b]).root).toBe(keccak256(concat(sorted)));
    expect(new MerkleTree([a]).root).toBe(a);
  });

  it('hashes a leaf as keccak256(abi.encode(struct)), the struct encoded behind its offset', () => {
    const leaf = {
      amountToReturn: 0n,
      chainId: 1n,
      refundAmounts: [5n],
      leafId: 0,
      l2TokenAddress: ZeroAddress,
      refundAddresses: [ZeroAddress],
    };
    const asStruct = AbiCoder.defaultAbiCoder().encode(
      ['tuple(uint256,uint256,uint256[],uint32,address,address[])'],
      [[0n, 1n, [5n], 0, ZeroAddress, [ZeroAddress]]],
    );
    // Solidity's abi.encode of a dynamic struct: first word is the offset of the struct (0x20).
    expect(BigInt(asStruct.slice(0, 66))).toBe(32n);
    expect(refundLeafHash(leaf)).toBe(keccak256(asStruct));
  });

  it('builds one leaf per chain and token, summing payments per address', () => {
    const token = '0x00000000000000000000000000000000000000aa';
    const other = '0x00000000000000000000000000000000000000bb';
    const [alice, bob] = ['0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000002'];
    const pay = (network: 'ethereum' | 'base', t: string, to: string, amount: bigint): BundlePayment => ({
      kind: 'relayer-repayment',
      deposit: {} as AcrossDeposit,
      network,
      token: t,
      to,
      amount,
    });
    const leaves = buildLeaves(
      [
        pay('ethereum', token, alice, 1n),
        pay('ethereum', token, bob, 2n),
        pay('ethereum', token, alice, 3n),
        pay('base', token, alice, 4n),
        pay('ethereum', other, bob, 5n),
      ],
      (n) => (n === 'ethereum' ? 1 : 8453),
    );
    expect(
      leaves.map((l) => [l.chainId, l.leafId, l.l2TokenAddress.toLowerCase(), l.refundAddresses, l.refundAmounts, l.amountToReturn]),
    ).toEqual([
      [1n, 0, token, [alice, bob], [4n, 2n], 0n],
      [8453n, 1, token, [alice], [4n], 0n],
      [1n, 2, other, [bob], [5n], 0n],
    ]);
  });
});
