import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { TracingSettings } from './settings.js';
import type { SpanStart, Tracing } from './tracing.js';

function samplerOf({ name, ratio }: TracingSettings['sampler']): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** What a failed span records: a code or a class name, never the message (it may quote what a user sent). */
function failureType(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.name : 'Error';
}

function fail(span: Span, err: unknown): void {
  span.setAttribute('error.type', failureType(err));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Ends the span when `result` settles (a promise) or at once; marks it failed on a rejection. */
function endWith<T>(span: Span, result: T): T {
  if (result instanceof Promise) {
    result.then(
      () => span.end(),
      (err: unknown) => {
        fail(span, err);
        span.end();
      },
    );
    return result;
  }
  span.end();
  return result;
}

/**
 * Tracing with the OpenTelemetry SDK: a tracer provider of this server's (OTLP/HTTP exporter, protobuf or JSON
 * bodies, batched), W3C trace context, and the current span kept in an AsyncLocalStorage of its own. Nothing is registered
 * globally (no global tracer provider, context manager or propagator): two servers in one process trace apart.
 */
export function createOtelTracing(
  settings: TracingSettings,
  resource: { serviceVersion: string; serviceInstanceId: string },
): Tracing {
  const Exporter = settings.protocol === 'http/protobuf' ? OtlpProtobufExporter : OtlpJsonExporter;
  const exporter = new Exporter({
    url: settings.url,
    headers: settings.headers,
    ...(settings.timeoutMillis !== undefined && { timeoutMillis: settings.timeoutMillis }),
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.version': resource.serviceVersion,
      'service.instance.id': resource.serviceInstanceId,
      ...settings.resourceAttributes,
      'service.name': settings.serviceName,
    }),
    sampler: samplerOf(settings.sampler),
    spanProcessors: [new BatchSpanProcessor({ exporter, ...settings.batch })],
  });
  const tracer = provider.getTracer('switchboard', resource.serviceVersion);
  const propagator = new W3CTraceContextPropagator();
  const current = new AsyncLocalStorage<Context>();

  /**
   * The attributes go on after the start, and only on a span that records: given to the tracer's `startSpan`, they
   * would be copied twice (for the sampler, which ours do not read, then for the span), and for a dropped span too.
   */
  function startSpan(name: string, { kind, attributes }: SpanStart, parent: Context): Span {
    const span = tracer.startSpan(name, { kind }, parent);
    if (attributes && span.isRecording()) span.setAttributes(attributes);
    return span;
  }

  /** Runs `work` in a new span under `parent`, ending it when the work is done. */
  function inSpanUnder<T>(parent: Context, name: string, start: SpanStart, work: (span: Span) => T): T {
    const span = startSpan(name, start, parent);
    let result: T;
    try {
      result = current.run(trace.setSpan(parent, span), () => work(span));
    } catch (err) {
      fail(span, err);
      span.end();
      throw err;
    }
    return endWith(span, result);
  }

  function extract(headers: object): Context {
    return propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  }

  return {
    enabled: true,
    inChildSpan(name, start, work) {
      const parent = current.getStore();
      if (!parent) return work(undefined);
      return inSpanUnder(parent, name, start, work);
    },
    inSpanFrom(traceparent, name, start, work) {
      const parent = traceparent ? extract({ traceparent }) : ROOT_CONTEXT;
      return inSpanUnder(parent, name, start, work);
    },
    traceparent() {
      const context = current.getStore();
      if (!context) return undefined;
      const carrier: { traceparent?: string } = {};
      propagator.inject(context, carrier, defaultTextMapSetter);
      return carrier.traceparent;
    },
    root: ROOT_CONTEXT,
    extract,
    startSpan,
    contextWith: (parent, span) => trace.setSpan(parent, span),
    runIn: (context, work) => current.run(context, work),
    outside: (work) => current.exit(work),
    async shutdown() {
      await provider.shutdown();
    },
  };
}
