// What the standard OTEL_* variables make of a server's tracing (server/tracing/settings.ts).
import { describe, expect, it } from 'vitest';
import { readTracingSettings } from '../../server/tracing/settings.js';

describe('the OTEL_* variables', () => {
  it('turn tracing on with an endpoint, or an otlp exporter, and off otherwise', () => {
    expect(readTracingSettings({})).toBeUndefined();
    expect(readTracingSettings({ OTEL_SERVICE_NAME: 'sb' })).toBeUndefined();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })?.url).toBe('http://c:4318/v1/traces');
    expect(
      readTracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:9999/spans',
      })?.url,
    ).toBe('http://t:9999/spans');
    expect(readTracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' })?.url).toBe('http://localhost:4318/v1/traces');
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(
      undefined,
    );
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBe(
      undefined,
    );
  });

  it('name the service, its resource, the sampler and the export headers; what they cannot use is a warning', () => {
    const settings = readTracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_SERVICE_NAME: 'switchboard-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,team=chat',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect(settings).toMatchObject({
      serviceName: 'switchboard-eu',
      resourceAttributes: { 'deployment.environment.name': 'prod', team: 'chat' },
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
      headers: { authorization: 'Bearer abc' },
    });
    expect(settings?.warnings).toEqual([expect.stringMatching(/OTEL_EXPORTER_OTLP_PROTOCOL="grpc".*http\/protobuf/)]);
    expect(settings?.protocol).toBe('http/protobuf');
    const json = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    expect(readTracingSettings(json)?.protocol).toBe('http/json');
    expect(readTracingSettings({ ...json, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })?.protocol).toBe(
      'http/protobuf',
    );
    const odd = readTracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_TRACES_SAMPLER: 'jaeger_remote',
      OTEL_BSP_SCHEDULE_DELAY: 'soon',
    });
    expect(odd).toMatchObject({ serviceName: 'switchboard', sampler: { name: 'parentbased_always_on', ratio: 1 } });
    expect(odd?.warnings).toHaveLength(2);
  });
});
