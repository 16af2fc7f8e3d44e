import { context, propagation, trace } from '@opentelemetry/api';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NodeTracerProvider,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import Redis from 'ioredis';
import * as pg from 'pg';

/**
 * OpenTelemetry tracing for one process (issue 20): a tracer provider with the AsyncLocalStorage
 * context manager and the W3C trace-context propagator, always, so every request has a trace id
 * (logged on each line, carried in NATS headers) even when nothing is exported. Spans are recorded
 * and exported only when the standard variables ask for it:
 *
 * - `OTEL_TRACES_EXPORTER=otlp` (or `console`), or `OTEL_EXPORTER_OTLP_ENDPOINT` /
 *   `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` set: OTLP over HTTP (JSON) through a batch processor
 *   (`OTEL_BSP_*` tune it), sampled by `OTEL_TRACES_SAMPLER` (default parent-based always-on).
 * - otherwise, or `OTEL_TRACES_EXPORTER=none` / `OTEL_SDK_DISABLED=true`: the always-off sampler,
 *   so spans are non-recording (ids only, nothing buffered or sent) and pg/ioredis are not patched.
 *
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` name the resource (default: the app's name).
 */
export interface TracingOptions {
  /** the process's environment (default process.env) */
  readonly env?: NodeJS.ProcessEnv;
  /** span processors to use instead of the environment's exporter (tests: an in-memory exporter) */
  readonly spanProcessors?: readonly SpanProcessor[];
}

export interface TracingHandle {
  readonly service: string;
  /** spans are recorded and exported */
  readonly recording: boolean;
  /** exports what is buffered (on shutdown) */
  flush(): Promise<void>;
}

let current: (TracingHandle & { provider: NodeTracerProvider }) | undefined;

/** Which exporter the environment asks for: `otlp`, `console` or none. */
export function tracesExporterOf(env: NodeJS.ProcessEnv): 'otlp' | 'console' | undefined {
  if ((env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase() === 'true') return undefined;
  const named = (env['OTEL_TRACES_EXPORTER'] ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (named.includes('none')) return undefined;
  if (named.includes('otlp')) return 'otlp';
  if (named.includes('console')) return 'console';
  return env['OTEL_EXPORTER_OTLP_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ? 'otlp' : undefined;
}

/**
 * Sets up tracing once per process (later calls answer the first setup): apps call it first thing
 * (startMicroservice, createGateway); a test passes its own span processors.
 */
export function initTracing(service: string, options: TracingOptions = {}): TracingHandle {
  if (current) return current;
  const env = options.env ?? process.env;
  const kind = options.spanProcessors ? 'given' : tracesExporterOf(env);
  const processors: SpanProcessor[] = options.spanProcessors
    ? [...options.spanProcessors]
    : kind === 'otlp'
      ? [new BatchSpanProcessor(new OTLPTraceExporter())]
      : kind === 'console'
        ? [new BatchSpanProcessor(new ConsoleSpanExporter())]
        : [];
  const resource = resourceFromAttributes({ 'service.name': service }).merge(detectResources({ detectors: [envDetector] }));
  const recording = processors.length > 0;
  // Unset sampler: the SDK reads OTEL_TRACES_SAMPLER (default parent-based always-on).
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: processors,
    ...(recording ? {} : { sampler: new AlwaysOffSampler() }),
  });
  provider.register();
  if (recording) instrumentClients(provider);
  current = { service, recording, provider, flush: () => provider.forceFlush() };
  return current;
}

/** The process's tracing setup, if initTracing ran. */
export function tracing(): TracingHandle | undefined {
  return current;
}

/**
 * Undoes initTracing (tests that set up tracing twice in one process). Spans already buffered
 * are exported first.
 */
export async function resetTracing(): Promise<void> {
  const was = current;
  current = undefined;
  if (!was) return;
  await was.provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
  for (const undo of unpatch.splice(0)) undo();
}

const unpatch: Array<() => void> = [];

/** Applies an instrumentation's patch for `name` to the module this process loaded. */
function patchLoaded(instrumentation: InstrumentationBase, provider: NodeTracerProvider, name: string, moduleExports: unknown): void {
  instrumentation.setTracerProvider(provider);
  const def = instrumentation.getModuleDefinitions().find((d) => d.name === name);
  def?.patch?.(moduleExports as never);
  unpatch.push(() => def?.unpatch?.(moduleExports as never));
}

/**
 * Query spans for every pg client (raw pools and TypeORM's) and command spans for every ioredis
 * client (the gateway's limiter and key cache, BullMQ): the modules this process loaded are
 * patched directly, so it works whatever was required first (no require hook) and under Jest.
 * Spans only below an active span (a request being handled), never for background loops on
 * their own (BullMQ's polling, the indexer's batches); no connect spans, no parameter values.
 */
function instrumentClients(provider: NodeTracerProvider): void {
  patchLoaded(
    new PgInstrumentation({ enabled: false, requireParentSpan: true, ignoreConnectSpans: true, enhancedDatabaseReporting: false }),
    provider,
    'pg',
    pg,
  );
  patchLoaded(
    new IORedisInstrumentation({ enabled: false, requireParentSpan: true, dbStatementSerializer: (command) => command }),
    provider,
    'ioredis',
    Redis,
  );
}
