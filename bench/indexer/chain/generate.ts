/**
 * The bench chain: a private anvil (chain id 1, pruned history) holding the bench world plus
 * `plan.blocks` blocks of EventPump transactions. The generated state is dumped under
 * .bench/indexer/<key>/ (key = hash of this folder's code, the pump source, tool versions and the
 * plan), so later runs only load it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Interface } from 'ethers';
import { startAnvil, type AnvilProcess } from '@tokensvc/devnet';
import { compactStateFile } from './compact-state';
import { type ChainPlan, type PumpMix } from './mix';
import { BENCH_DIR, CHAIN_CODE_DIR, SOLIDITY_DIR } from './paths';
import { loadPumpArtifact } from './pump-artifact';
import { BenchRpc, hex, latestBlock } from './rpc';
import { BLOCK_SECONDS, DEPLOYER, deployWorld, type BenchWorld } from './world';
import { BlockWriter } from './writer';

export const BENCH_CHAIN_ID = 1;
const PUMP_TX_GAS = 40_000_000n;
export const FINALITY_PADDING = 100;

export interface ChainMeta {
  key: string;
  world: BenchWorld;
  plan: ChainPlan;
  head: number;
  headTimestamp: number;
  generationSeconds: number;
  /** dump + compaction of the state */
  saveSeconds: number;
}

export interface BenchChain {
  anvil: AnvilProcess;
  rpc: BenchRpc;
  meta: ChainMeta;
  /** true when this run generated the chain (else it loaded a saved state) */
  generated: boolean;
  loadSeconds: number;
  stateBytes: number;
}

function versionOf(pkg: string): string {
  return (JSON.parse(readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), 'package.json'), 'utf8')) as { version: string })
    .version;
}

export function chainKey(plan: ChainPlan): string {
  const h = createHash('sha256').update(JSON.stringify(plan));
  for (const dir of [CHAIN_CODE_DIR, SOLIDITY_DIR]) {
    for (const f of readdirSync(dir).sort()) {
      const full = join(dir, f);
      if (statSync(full).isFile() && !f.endsWith('.spec.ts')) h.update(`\0${f}\0`).update(readFileSync(full));
    }
  }
  for (const pkg of ['@foundry-rs/anvil', 'solc', '@openzeppelin/contracts', '@uniswap/v2-core', '@uniswap/v2-periphery'])
    h.update(`${pkg}@${versionOf(pkg)}`);
  return h.digest('hex').slice(0, 16);
}

const pumpIface = new Interface(loadPumpArtifact().abi);

/** Queues `txs` pump calls (salts make every call's recipients and amounts different). */
export function queuePump(w: BlockWriter, pump: string, mix: PumpMix, txs: number, saltBase: number): void {
  for (let i = 0; i < txs; i++) w.call(pump, pumpIface, 'pump', [mix.transfers, mix.swaps, mix.flows, saltBase + i], PUMP_TX_GAS, 'pump');
}

async function generate(port: number, plan: ChainPlan, key: string, dir: string, log: (s: string) => void): Promise<ChainMeta> {
  const started = Date.now();
  const genesis = Math.floor(Date.now() / 1000) - (plan.blocks + 100) * BLOCK_SECONDS;
  const tmpState = join(dir, 'state.json.tmp');
  const anvil = await startAnvil({
    host: '127.0.0.1',
    port,
    chainId: BENCH_CHAIN_ID,
    timestamp: genesis,
    noMining: true,
    extraArgs: ['--dump-state', tmpState],
  });
  try {
    const rpc = new BenchRpc(anvil.rpcUrl);
    const deployed = await deployWorld(rpc, BENCH_CHAIN_ID, genesis + BLOCK_SECONDS);
    const world = deployed.world;
    let timestamp = deployed.timestamp;
    const w = new BlockWriter(rpc, DEPLOYER);
    await w.syncNonce();
    let head = 0;
    for (let b = 0; b < plan.blocks; b++) {
      timestamp += BLOCK_SECONDS;
      queuePump(w, world.pump, plan.mix, plan.txsPerBlock, b * plan.txsPerBlock);
      // receipts carry every log: check the first block's, the event count is verified by the baselines
      head = await w.mine(timestamp, b === 0);
      if ((b + 1) % 100 === 0) log(`  generated ${b + 1}/${plan.blocks} blocks (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    // Empty blocks after the events, more than any contender's finality depth (Ponder: 65 on chain
    // id 1), so every event is in the finalised range: backfill is measured, not the head path.
    const padding = Date.now();
    await rpc.call('anvil_mine', [hex(FINALITY_PADDING), hex(BLOCK_SECONDS)]);
    log(`  mined ${FINALITY_PADDING} empty blocks in ${((Date.now() - padding) / 1000).toFixed(1)} s`);
    const last = await latestBlock(rpc);
    head = last.number;
    timestamp = last.timestamp;
    const generationSeconds = (Date.now() - started) / 1000;
    log(`  generated ${plan.events} pump events in ${plan.blocks} blocks in ${generationSeconds.toFixed(1)} s; saving state`);
    const saving = Date.now();
    await anvil.stop(300_000);
    if (!existsSync(tmpState)) throw new Error('anvil exited without writing its state');
    await compactStateFile(tmpState, `${tmpState}.compact`);
    rmSync(tmpState);
    renameSync(`${tmpState}.compact`, join(dir, 'state.json'));
    const saveSeconds = (Date.now() - saving) / 1000;
    log(`  saved state in ${saveSeconds.toFixed(1)} s (dump + dropping nested call traces, which make loading ~20x slower)`);
    return { key, world, plan, head, headTimestamp: timestamp, generationSeconds, saveSeconds };
  } finally {
    await anvil.stop(300_000);
  }
}

/** Saved chains of other code versions or sizes are GBs each: keep only the one being built. */
function removeSavedChains(): void {
  if (!existsSync(BENCH_DIR)) return;
  for (const entry of readdirSync(BENCH_DIR)) {
    const full = join(BENCH_DIR, entry);
    if (/^[0-9a-f]{16}$/.test(entry) && statSync(full).isDirectory()) rmSync(full, { recursive: true, force: true });
  }
}

/** Loads the saved chain for `plan`, generating (and saving) it first when there is none. */
export async function ensureBenchChain(port: number, plan: ChainPlan, log: (s: string) => void): Promise<BenchChain> {
  const key = chainKey(plan);
  const dir = join(BENCH_DIR, key);
  const metaFile = join(dir, 'chain.json');
  const stateFile = join(dir, 'state.json');
  let generated = false;
  if (!existsSync(metaFile) || !existsSync(stateFile)) {
    removeSavedChains();
    mkdirSync(dir, { recursive: true });
    log(`bench chain ${key}: generating ${plan.events} events in ${plan.blocks} blocks of ${plan.txsPerBlock} pump txs`);
    const meta = await generate(port, plan, key, dir, log);
    writeFileSync(metaFile, JSON.stringify(meta, null, 1));
    generated = true;
  }
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as ChainMeta;
  const started = Date.now();
  const anvil = await startAnvil({
    host: '127.0.0.1',
    port,
    chainId: BENCH_CHAIN_ID,
    loadState: stateFile,
    noMining: true,
    readyTimeoutMs: 300_000,
  });
  const rpc = new BenchRpc(anvil.rpcUrl);
  const head = await rpc.blockNumber();
  const loadSeconds = (Date.now() - started) / 1000;
  if (head !== meta.head) {
    await anvil.stop();
    throw new Error(`saved bench chain ${key} loaded at block ${head}, expected ${meta.head}`);
  }
  return { anvil, rpc, meta, generated, loadSeconds, stateBytes: statSync(stateFile).size };
}
