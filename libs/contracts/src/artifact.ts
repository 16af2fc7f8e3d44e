import type { InterfaceAbi } from 'ethers';

/** Byte offsets of library placeholders, keyed by source file then library name (solc/Hardhat shape). */
export type LinkReferences = Record<string, Record<string, Array<{ start: number; length: number }>>>;

/** The one artifact shape every loader returns, whatever tool produced the file. */
export interface Artifact {
  readonly contractName: string;
  readonly abi: InterfaceAbi;
  /** 0x-prefixed creation code; may contain `__$…$__` placeholders until linked */
  readonly bytecode: string;
  /** 0x-prefixed runtime code (what anvil_setCode installs) */
  readonly deployedBytecode: string;
  readonly linkReferences: LinkReferences;
  /**
   * Byte ranges of the runtime code holding each immutable, keyed by `Contract.variable` (e.g.
   * `Router.executor`, `EIP712._cachedChainId`): zeros in `deployedBytecode`, filled by the constructor.
   * Only in artifacts compiled here.
   */
  readonly immutableReferences?: Readonly<Record<string, ReadonlyArray<{ start: number; length: number }>>>;
}

export function with0x(hex: string): string {
  return hex.startsWith('0x') ? hex : `0x${hex}`;
}

/** Library names the bytecode still needs, e.g. ['BorrowLogic', 'SupplyLogic']. */
export function requiredLibraries(artifact: Artifact): string[] {
  return [...new Set(Object.values(artifact.linkReferences).flatMap((libs) => Object.keys(libs)))].sort();
}

/**
 * Replaces library placeholders with deployed addresses. Offsets come from the artifact, so the
 * placeholder format (hashed `__$…$__` or legacy `__Name___`) does not matter.
 */
export function linkBytecode(artifact: Artifact, libraries: Readonly<Record<string, string>>): string {
  let code = artifact.bytecode;
  for (const libs of Object.values(artifact.linkReferences)) {
    for (const [name, refs] of Object.entries(libs)) {
      const address = libraries[name];
      if (!address) throw new Error(`${artifact.contractName} needs library ${name}; pass its address`);
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`library ${name}: invalid address "${address}"`);
      const hex = address.slice(2).toLowerCase();
      for (const { start, length } of refs) {
        if (length !== 20) throw new Error(`library ${name}: unexpected placeholder length ${length}`);
        const at = 2 + start * 2; // skip "0x"; offsets are in bytes
        code = code.slice(0, at) + hex + code.slice(at + 40);
      }
    }
  }
  if (code.includes('__')) throw new Error(`${artifact.contractName}: unlinked placeholders remain after linking`);
  return code;
}
