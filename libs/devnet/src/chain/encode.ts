/**
 * ethers recomputes a function's selector (a keccak) on every encode; the seeder encodes tens
 * of thousands of calls, so fragments and selectors are cached per interface.
 */
import { AbiCoder, type FunctionFragment, type Interface } from 'ethers';

const coder = AbiCoder.defaultAbiCoder();
const cache = new WeakMap<Interface, Map<string, { fragment: FunctionFragment; selector: string }>>();

function entry(iface: Interface, fn: string): { fragment: FunctionFragment; selector: string } {
  let perIface = cache.get(iface);
  if (!perIface) {
    perIface = new Map();
    cache.set(iface, perIface);
  }
  let e = perIface.get(fn);
  if (!e) {
    const fragment = iface.getFunction(fn);
    if (!fragment) throw new Error(`no function ${fn} in interface`);
    e = { fragment, selector: fragment.selector };
    perIface.set(fn, e);
  }
  return e;
}

export function encodeCall(iface: Interface, fn: string, args: readonly unknown[]): string {
  const { fragment, selector } = entry(iface, fn);
  return selector + coder.encode(fragment.inputs, args).slice(2);
}

export function decodeResult(iface: Interface, fn: string, data: string): ReturnType<AbiCoder['decode']> {
  return coder.decode(entry(iface, fn).fragment.outputs, data);
}
