import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeTraceExport } from './otlp-protobuf.js';

/** One span as an OTLP/HTTP export carries it (in its JSON encoding's terms), reduced to what the tests read. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** The resource's attributes (service.name …). */
  resource: Record<string, string | number | boolean>;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? '')),
    ]),
  );

/** A collector of our own on loopback: takes OTLP/HTTP exports (JSON or protobuf) at `/v1/traces`, keeps their spans. */
export async function startOtlpReceiver() {
  const spans: ExportedSpan[] = [];
  let exports = 0;
  const encodings = new Set<'http/json' | 'http/protobuf'>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const type = req.headers['content-type'] ?? '';
      const json = type.startsWith('application/json');
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !(json || type.startsWith('application/x-protobuf'))) {
        res.writeHead(415).end();
        return;
      }
      exports++;
      encodings.add(json ? 'http/json' : 'http/protobuf');
      const bytes = Buffer.concat(chunks);
      const body = json ? JSON.parse(bytes.toString('utf8')) : decodeTraceExport(bytes);
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? [])
          for (const span of scopeSpans.spans ?? [])
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              resource,
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    /** The OTEL_EXPORTER_OTLP_ENDPOINT to give a server. */
    url: `http://127.0.0.1:${port}`,
    spans,
    /** How many exports (POSTs) arrived. */
    exports: () => exports,
    /** The encodings the exports came in. */
    encodings,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;

/** `00-<trace id>-<span id>-<flags>` split into its parts. */
export function parseTraceparent(header: unknown): { traceId: string; spanId: string } {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(header));
  if (!match) throw new Error(`not a traceparent: ${String(header)}`);
  return { traceId: match[1], spanId: match[2] };
}
