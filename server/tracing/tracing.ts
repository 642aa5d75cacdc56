import type { Attributes, Context, Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { OtelEnvironment } from './otel-environment.js';

/**
 * @opentelemetry/api's `SpanKind` and `SpanStatusCode.ERROR`, as values of our own: the code that may trace (the HTTP
 * pipeline, the relay, the webhook worker) loads no OpenTelemetry module until a server traces.
 */
export const SPAN_KIND = { internal: 0, server: 1, client: 2, producer: 3, consumer: 4 } as const satisfies Record<
  string,
  SpanKind
>;
export const SPAN_STATUS_ERROR: SpanStatusCode = 2;

/** A span's kind and attributes; never message text, secrets or tokens (docs/security.md). */
export interface SpanStart {
  kind?: SpanKind;
  attributes?: Attributes;
}

/**
 * The server's OpenTelemetry tracing (server/tracing/otel.ts), or none (`noTracing`): what the rest of the server
 * calls, whichever it is. Its own tracer provider, never the global one, and its own current span (carried across
 * awaits), so that two servers in one process trace apart; `shutdown` exports what is left and stops it.
 */
export interface Tracing {
  readonly enabled: boolean;
  /**
   * Runs `work` in a span, child of the current one, when the running code is inside a trace (a request, an event
   * from another node, a webhook attempt); outside any trace (a background job) just runs it. A span whose work
   * throws or rejects is marked failed, with the error's code or name only (its message may quote what a user sent).
   */
  inChildSpan<T>(name: string, start: SpanStart, work: (span: Span | undefined) => T): T;
  /**
   * Runs `work` in a new span whose parent is `traceparent` (a W3C `traceparent` carried with a message or a queued
   * row), or the root of a new trace without one.
   */
  inSpanFrom<T>(
    traceparent: string | null | undefined,
    name: string,
    start: SpanStart,
    work: (span: Span | undefined) => T,
  ): T;
  /** The W3C `traceparent` of the current span, to carry it elsewhere; undefined outside any trace. */
  traceparent(): string | undefined;
  /** The context of no trace: the parent of a new trace's first span. */
  readonly root: Context;
  /** A context whose parent is the one given by these headers (`traceparent`, `tracestate`), or the root. */
  extract(headers: object): Context;
  /** Starts a span, child of `parent` (`root`, or what `extract` made); the caller ends it. */
  startSpan(name: string, start: SpanStart, parent: Context): Span;
  /** `parent` with `span` as its current span: what `runIn` takes. */
  contextWith(parent: Context, span: Span): Context;
  /** Runs `work` in `context` (which `contextWith` made). */
  runIn<T>(context: Context, work: () => T): T;
  /**
   * Runs `work` outside any trace: for what starts background work (timers, a queue's loop) from inside a request,
   * whose spans would otherwise all be children of that one request.
   */
  outside<T>(work: () => T): T;
  /** Sends the spans not yet exported and stops: `close()` calls it last. */
  shutdown(): Promise<void>;
}

/** No tracing: what a server without any OTEL_* variable has, at the cost of a property read and a call. */
export const noTracing: Tracing = {
  enabled: false,
  inChildSpan: (_name, _start, work) => work(undefined),
  inSpanFrom: (_traceparent, _name, _start, work) => work(undefined),
  traceparent: () => undefined,
  get root(): Context {
    throw new Error('root is for a server that traces');
  },
  extract: () => {
    throw new Error('extract is for a server that traces');
  },
  startSpan: () => {
    throw new Error('startSpan is for a server that traces');
  },
  contextWith: () => {
    throw new Error('contextWith is for a server that traces');
  },
  runIn: (_context, work) => work(),
  outside: (work) => work(),
  shutdown: async () => {},
};

/**
 * The server's tracing from its OTEL_* variables (server/tracing/settings.ts): `noTracing` without them, and then no
 * OpenTelemetry module is even loaded.
 */
export async function startTracing(
  env: OtelEnvironment | undefined,
  logger: Logger,
  resource: { serviceVersion: string; serviceInstanceId: string },
): Promise<Tracing> {
  if (!env) return noTracing;
  const settings = (await import('./settings.js')).readTracingSettings(env);
  if (!settings) return noTracing;
  for (const warning of settings.warnings) logger.warn(`tracing: ${warning}`);
  const { createOtelTracing } = await import('./otel.js');
  logger.info({ url: settings.url, serviceName: settings.serviceName }, 'tracing: spans are exported with OTLP/HTTP');
  return createOtelTracing(settings, resource);
}
