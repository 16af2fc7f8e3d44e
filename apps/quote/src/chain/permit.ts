/**
 * EIP-2612 detection by eth_call: the token must answer DOMAIN_SEPARATOR() and nonces(owner),
 * its permit(...) must exist (an expired dummy permit reverts with a reason; an unknown selector
 * reverts empty or lands in a fallback), and its domain must be reconstructible (EIP-5267
 * eip712Domain(), else name() with version "1" or "2") so the typed data we hand out is the one
 * the token verifies.
 */
import { AbiCoder, Interface, TypedDataEncoder, getAddress, type TypedDataDomain } from 'ethers';
import { JsonRpcError, type JsonRpcClient, decodeStringResult, decodeUintResult, multicall } from '@tokensvc/chain';

const IFACE = new Interface([
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function nonces(address owner) view returns (uint256)',
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'function name() view returns (string)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
]);

export const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
};

export interface PermitSupport {
  domain: TypedDataDomain;
  nonce: bigint;
}

function domainFromEip5267(ret: string | undefined): TypedDataDomain[] {
  if (!ret) return [];
  try {
    const d = IFACE.decodeFunctionResult('eip712Domain', ret);
    return [
      {
        name: d.getValue('name') as string,
        version: d.getValue('version') as string,
        chainId: Number(d.getValue('chainId') as bigint),
        verifyingContract: getAddress(d.getValue('verifyingContract') as string),
      },
    ];
  } catch {
    return [];
  }
}

async function permitExists(client: JsonRpcClient, token: string, owner: string): Promise<boolean> {
  const zero = `0x${'0'.repeat(64)}`;
  const data = IFACE.encodeFunctionData('permit', [owner, owner, 0n, 0n, 0, zero, zero]);
  try {
    await client.call('eth_call', [{ from: owner, to: token, data }, 'latest']);
    return false; // a fallback swallowed it (WETH9 deposits)
  } catch (e) {
    if (!(e instanceof JsonRpcError) || !/revert/i.test(e.rpcMessage)) throw e;
    return typeof e.data === 'string' && e.data.length > 2;
  }
}

export async function detectPermit(
  client: JsonRpcClient,
  chainId: number,
  token: string,
  owner: string,
): Promise<PermitSupport | undefined> {
  const calls = ['DOMAIN_SEPARATOR', 'nonces', 'eip712Domain', 'name'].map((fn) => ({
    target: token,
    data: IFACE.encodeFunctionData(fn, fn === 'nonces' ? [owner] : []),
  }));
  const [separator, nonces, eip712, name] = await multicall(client, calls);
  const nonce = decodeUintResult(nonces);
  if (!separator || separator.length !== 66 || nonce === undefined) return undefined;
  const tokenName = decodeStringResult(name);
  const candidates: TypedDataDomain[] = [
    ...domainFromEip5267(eip712),
    ...(tokenName === undefined
      ? []
      : ['1', '2'].map((version) => ({ name: tokenName, version, chainId, verifyingContract: getAddress(token) }))),
  ];
  const domain = candidates.find((d) => TypedDataEncoder.hashDomain(d) === AbiCoder.defaultAbiCoder().decode(['bytes32'], separator)[0]);
  if (!domain || !(await permitExists(client, token, owner))) return undefined;
  return { domain, nonce };
}
