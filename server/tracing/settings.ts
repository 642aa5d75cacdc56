import { parseKeyPairsIntoRecord } from '@opentelemetry/core';
import type { OtelEnvironment } from './otel-environment.js';

export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

const SAMPLERS: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/** The OTLP/HTTP encodings the exporter can send (`grpc` is not one). */
export type OtlpProtocol = 'http/json' | 'http/protobuf';

/** What the exporter and the tracer provider are made with, read from the standard variables. */
export interface TracingSettings {
  /** Where spans are POSTed, OTLP/HTTP. */
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  timeoutMillis?: number;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: { name: SamplerName; ratio: number };
  batch: {
    scheduledDelayMillis?: number;
    maxQueueSize?: number;
    maxExportBatchSize?: number;
    exportTimeoutMillis?: number;
  };
  /** What in the variables was not understood, and what the server does instead: for the log. */
  warnings: string[];
}

const DEFAULT_TRACES_ENDPOINT = 'http://localhost:4318/v1/traces';
/**
 * The specification's default, and the cheaper one to send: encoding a span takes 12–27% less CPU than as JSON, and
 * its body is 60% smaller (docs/benchmarks.md, Tracing overhead).
 */
const DEFAULT_PROTOCOL: OtlpProtocol = 'http/protobuf';

function positiveNumber(env: OtelEnvironment, name: string, warnings: string[]): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (Number.isFinite(value) && value > 0) return value;
  warnings.push(`${name}="${text}" is not a positive number: its default is used`);
  return undefined;
}

/** `OTEL_EXPORTER_OTLP_ENDPOINT` is a base to which the signal's path is added; the traces endpoint is used as is. */
function tracesUrl(env: OtelEnvironment): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) return `${base.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/**
 * Tracing is on when an OTLP endpoint is given (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT),
 * or when OTEL_TRACES_EXPORTER asks for `otlp` (then the default endpoint, localhost:4318); off when none is set,
 * when OTEL_TRACES_EXPORTER is `none` (or anything without `otlp`), or when OTEL_SDK_DISABLED is `true`.
 */
export function readTracingSettings(env: OtelEnvironment): TracingSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(',').map((name) => name.trim().toLowerCase());
  if (exporters && !exporters.includes('otlp')) return undefined;
  const url = tracesUrl(env) ?? (exporters ? DEFAULT_TRACES_ENDPOINT : undefined);
  if (!url) return undefined;

  const warnings: string[] = [];
  const protocolText = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
  let protocol: OtlpProtocol = DEFAULT_PROTOCOL;
  if (protocolText === 'http/json' || protocolText === 'http/protobuf') protocol = protocolText;
  else if (protocolText)
    warnings.push(`OTEL_EXPORTER_OTLP_PROTOCOL="${protocolText}" is not supported: spans are sent as ${protocol}`);

  const samplerText = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  let samplerName = SAMPLERS.find((name) => name === samplerText);
  if (!samplerName) {
    warnings.push(`OTEL_TRACES_SAMPLER="${samplerText}" is not supported: parentbased_always_on is used`);
    samplerName = 'parentbased_always_on';
  }
  let ratio = 1;
  const ratioText = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (ratioText && samplerName.endsWith('traceidratio')) {
    const value = Number(ratioText);
    if (Number.isFinite(value) && value >= 0 && value <= 1) ratio = value;
    else warnings.push(`OTEL_TRACES_SAMPLER_ARG="${ratioText}" is not a number from 0 to 1: 1 is used`);
  }

  return {
    url,
    protocol,
    headers: {
      ...parseKeyPairsIntoRecord(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseKeyPairsIntoRecord(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    timeoutMillis:
      positiveNumber(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', warnings) ??
      positiveNumber(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', warnings),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'switchboard',
    resourceAttributes: parseKeyPairsIntoRecord(env.OTEL_RESOURCE_ATTRIBUTES),
    sampler: { name: samplerName, ratio },
    batch: {
      scheduledDelayMillis: positiveNumber(env, 'OTEL_BSP_SCHEDULE_DELAY', warnings),
      maxQueueSize: positiveNumber(env, 'OTEL_BSP_MAX_QUEUE_SIZE', warnings),
      maxExportBatchSize: positiveNumber(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', warnings),
      exportTimeoutMillis: positiveNumber(env, 'OTEL_BSP_EXPORT_TIMEOUT', warnings),
    },
    warnings,
  };
}
