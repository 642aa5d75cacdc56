import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveServeSettings, UsageError } from '../../cli/config.js';
import { parseEnvironmentAlias } from '../../server/environments.js';

describe('serve settings', () => {
  it('defaults to 127.0.0.1:4700 in local mode with the user data folder', () => {
    const settings = resolveServeSettings({}, { HOME: '/home/u', XDG_DATA_HOME: '/data' });
    expect(settings).toEqual({
      port: 4700,
      host: '127.0.0.1',
      mode: 'local',
      dataDir: defaultDataDir({ XDG_DATA_HOME: '/data' }),
      security: {},
      logLevel: 'info',
      accessLog: 'all',
    });
  });

  it('prefers flags over variables', () => {
    const env = {
      SWITCHBOARD_PORT: '5000',
      SWITCHBOARD_HOST: '0.0.0.0',
      SWITCHBOARD_DATA_DIR: '/env',
      SWITCHBOARD_MODE: 'production',
    };
    expect(resolveServeSettings({}, env)).toEqual({
      port: 5000,
      host: '0.0.0.0',
      dataDir: '/env',
      mode: 'production',
      security: {},
      logLevel: 'info',
      accessLog: 'all',
    });
    expect(resolveServeSettings({ port: '0', host: '::1', dataDir: '/flag', mode: 'LOCAL' }, env)).toEqual({
      port: 0,
      host: '::1',
      dataDir: '/flag',
      mode: 'local',
      security: {},
      logLevel: 'info',
      accessLog: 'all',
    });
  });

  it('takes the log level and the access log from a flag or a variable, and refuses what they are not', () => {
    const env = { SWITCHBOARD_LOG_LEVEL: 'WARN', SWITCHBOARD_ACCESS_LOG: '0.25' };
    expect(resolveServeSettings({}, env)).toMatchObject({ logLevel: 'warn', accessLog: 0.25 });
    expect(resolveServeSettings({ logLevel: 'debug', accessLog: 'errors' }, env)).toMatchObject({
      logLevel: 'debug',
      accessLog: 'errors',
    });
    expect(resolveServeSettings({ accessLog: 'off' }, {})).toMatchObject({ logLevel: 'info', accessLog: 'off' });
    expect(() => resolveServeSettings({ logLevel: 'loud' }, {})).toThrow(/--log-level must be one of fatal/);
    expect(() => resolveServeSettings({}, { SWITCHBOARD_ACCESS_LOG: '2' })).toThrow(
      /SWITCHBOARD_ACCESS_LOG must be all, errors, off, or a fraction from 0 to 1/,
    );
  });

  it('takes the RTC media mode from --rtc-media or SWITCHBOARD_RTC_MEDIA, and refuses another', () => {
    expect(resolveServeSettings({}, {}).rtc).toBeUndefined();
    expect(resolveServeSettings({}, { SWITCHBOARD_RTC_MEDIA: 'SFU' })).toMatchObject({ rtc: { media: 'sfu' } });
    expect(resolveServeSettings({ rtcMedia: 'mesh' }, { SWITCHBOARD_RTC_MEDIA: 'sfu' })).toMatchObject({
      rtc: { media: 'mesh' },
    });
    expect(() => resolveServeSettings({ rtcMedia: 'mcu' }, {})).toThrow(/--rtc-media must be "mesh" or "sfu"/);
  });

  it('serves metrics only when given a port, on 127.0.0.1 unless told otherwise', () => {
    expect(resolveServeSettings({}, {})).not.toHaveProperty('metrics');
    expect(resolveServeSettings({}, { SWITCHBOARD_METRICS_PORT: '9470' })).toMatchObject({
      metrics: { port: 9470, host: '127.0.0.1' },
    });
    expect(
      resolveServeSettings({ metricsPort: '0', metricsHost: '10.0.0.11' }, { SWITCHBOARD_METRICS_PORT: '9470' }),
    ).toMatchObject({ metrics: { port: 0, host: '10.0.0.11' } });
    expect(() => resolveServeSettings({ metricsPort: 'x' }, {})).toThrow(/--metrics-port must be a port number/);
    expect(() => resolveServeSettings({}, { SWITCHBOARD_METRICS_HOST: '0.0.0.0' })).toThrow(
      /SWITCHBOARD_METRICS_HOST needs --metrics-port/,
    );
  });

  it('hands the server the environment’s OTEL_* variables, which configure tracing, and none when it has none', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'sb', HOME: '/home/u' };
    expect(resolveServeSettings({}, env).otelEnvironment).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'sb',
    });
    expect(resolveServeSettings({}, { HOME: '/home/u' })).not.toHaveProperty('otelEnvironment');
  });

  it('puts the SFU’s media on UDP port 40100 unless --rtc-udp-port or SWITCHBOARD_RTC_UDP_PORT says otherwise', () => {
    expect(resolveServeSettings({ rtcMedia: 'sfu' }, {}).rtc).toEqual({ media: 'sfu', udpPort: 40100, processes: 1 });
    expect(resolveServeSettings({ rtcMedia: 'sfu' }, { SWITCHBOARD_RTC_UDP_PORT: '0' }).rtc?.udpPort).toBe(0);
    expect(
      resolveServeSettings({ rtcMedia: 'sfu', rtcUdpPort: '50000' }, { SWITCHBOARD_RTC_UDP_PORT: '40200' }).rtc,
    ).toEqual({ media: 'sfu', udpPort: 50000, processes: 1 });
    expect(() => resolveServeSettings({ rtcMedia: 'sfu', rtcUdpPort: '70000' }, {})).toThrow(
      /--rtc-udp-port must be a port number/,
    );
  });

  it('takes the number of media processes from --rtc-media-processes or SWITCHBOARD_RTC_MEDIA_PROCESSES, 1 to 64', () => {
    const processes = (flag?: string, env = {}) =>
      resolveServeSettings({ rtcMedia: 'sfu', rtcMediaProcesses: flag }, env).rtc?.processes;
    expect(processes()).toBe(1);
    expect(processes(undefined, { SWITCHBOARD_RTC_MEDIA_PROCESSES: '2' })).toBe(2);
    expect(processes('4', { SWITCHBOARD_RTC_MEDIA_PROCESSES: '2' })).toBe(4);
    expect(() => processes('0')).toThrow(/--rtc-media-processes must be a whole number from 1/);
    expect(() => processes('65')).toThrow(/--rtc-media-processes must be at most 64/);
  });

  it('announces the addresses of --rtc-announce-address or SWITCHBOARD_RTC_ANNOUNCE_ADDRESS, IPv4 ones only', () => {
    expect(resolveServeSettings({ rtcMedia: 'sfu', rtcAnnounceAddress: '203.0.113.7' }, {}).rtc).toEqual({
      media: 'sfu',
      udpPort: 40100,
      processes: 1,
      announceAddresses: ['203.0.113.7'],
    });
    expect(
      resolveServeSettings({ rtcMedia: 'sfu' }, { SWITCHBOARD_RTC_ANNOUNCE_ADDRESS: '203.0.113.7, 10.0.0.5' }).rtc
        ?.announceAddresses,
    ).toEqual(['203.0.113.7', '10.0.0.5']);
    expect(() => resolveServeSettings({ rtcMedia: 'sfu', rtcAnnounceAddress: 'media.example.com' }, {})).toThrow(
      '--rtc-announce-address: "media.example.com" is not an IPv4 address',
    );
    expect(() => resolveServeSettings({ rtcMedia: 'sfu' }, { SWITCHBOARD_RTC_ANNOUNCE_ADDRESS: '0.0.0.0' })).toThrow(
      'SWITCHBOARD_RTC_ANNOUNCE_ADDRESS: "0.0.0.0" is not an address a client can send to',
    );
    expect(() => resolveServeSettings({ rtcMedia: 'sfu', rtcAnnounceAddress: '2001:db8::1' }, {})).toThrow(
      /not an IPv4 address/,
    );
  });

  it('gives clients the ICE servers of --rtc-ice-servers, TURN with a credential from a file or a variable', () => {
    const credentialFile = join(mkdtempSync(join(tmpdir(), 'switchboard-turn-')), 'turn-credential');
    writeFileSync(credentialFile, 's3cret\n');
    // For either media mode: without --rtc-media, the mesh's clients get them.
    expect(resolveServeSettings({ rtcIceServers: 'stun:stun.example.com:3478' }, {}).rtc).toEqual({
      media: 'mesh',
      udpPort: 40100,
      processes: 1,
      iceServers: [{ urls: ['stun:stun.example.com:3478'] }],
    });
    expect(
      resolveServeSettings(
        {
          rtcMedia: 'sfu',
          rtcIceServers: 'stun:stun.example.com,turn:turn.example.com:3478?transport=udp,turns:turn.example.com',
          rtcTurnUsername: 'switchboard',
          rtcTurnCredentialFile: credentialFile,
        },
        {},
      ).rtc?.iceServers,
    ).toEqual([
      { urls: ['stun:stun.example.com'] },
      {
        urls: ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com'],
        username: 'switchboard',
        credential: 's3cret',
      },
    ]);
    expect(
      resolveServeSettings(
        {},
        {
          SWITCHBOARD_RTC_ICE_SERVERS: 'turn:10.0.0.9',
          SWITCHBOARD_RTC_TURN_USERNAME: 'u',
          SWITCHBOARD_RTC_TURN_CREDENTIAL: 'from-env',
        },
      ).rtc?.iceServers,
    ).toEqual([{ urls: ['turn:10.0.0.9'], username: 'u', credential: 'from-env' }]);
    expect(() => resolveServeSettings({ rtcIceServers: 'https://stun.example.com' }, {})).toThrow(
      '--rtc-ice-servers: "https://stun.example.com" is not a stun:, turn: or turns: URL',
    );
    expect(() => resolveServeSettings({ rtcIceServers: 'turn:turn.example.com' }, {})).toThrow(
      '--rtc-ice-servers: a TURN server needs a username and a credential',
    );
    expect(() => resolveServeSettings({ rtcIceServers: 'turn:t.example.com', rtcTurnUsername: 'u' }, {})).toThrow(
      '--rtc-turn-username needs a credential',
    );
    expect(() => resolveServeSettings({ rtcTurnCredentialFile: join(tmpdir(), 'no-such-credential') }, {})).toThrow(
      /--rtc-turn-credential-file: cannot read .*ENOENT/,
    );
  });

  it('takes the data flags: --import with --replace, --export-on-exit, and --seed over SWITCHBOARD_SEED', () => {
    const env = { SWITCHBOARD_SEED: 'env.seed.json' };
    expect(resolveServeSettings({}, env)).toMatchObject({ seedFile: 'env.seed.json' });
    const settings = resolveServeSettings(
      { import: 'in.tar.gz', replace: true, exportOnExit: 'out.tar.gz', seed: 'flag.seed.json' },
      env,
    );
    expect(settings).toMatchObject({
      importFile: 'in.tar.gz',
      replace: true,
      exportOnExit: 'out.tar.gz',
      seedFile: 'flag.seed.json',
    });
    expect(resolveServeSettings({ import: 'in.tar.gz' }, {})).toMatchObject({
      importFile: 'in.tar.gz',
      replace: false,
    });
  });

  it('reads single sign-on from flags and variables, the client secret only from a variable or a file', () => {
    const secretFile = join(mkdtempSync(join(tmpdir(), 'sb-oidc-')), 'secret');
    writeFileSync(secretFile, 'from the file\n');
    const flags = {
      oidcIssuer: 'https://id.example.com',
      oidcClientId: 'switchboard',
      oidcClientSecretFile: secretFile,
      oidcAllowedDomains: 'example.com, example.org',
      passwordSignIn: false,
    };
    expect(resolveServeSettings(flags, {}).security).toEqual({
      singleSignOn: {
        issuer: 'https://id.example.com',
        clientId: 'switchboard',
        clientSecret: 'from the file',
        allowedDomains: ['example.com', 'example.org'],
      },
      passwordSignIn: false,
    });
    const env = {
      SWITCHBOARD_OIDC_ISSUER: 'https://id.example.com',
      SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard',
      SWITCHBOARD_OIDC_CLIENT_SECRET: 'from the variable',
      SWITCHBOARD_OIDC_NAME: 'Acme SSO',
      SWITCHBOARD_PUBLIC_URL: 'https://switchboard.example.com',
      SWITCHBOARD_PASSWORD_SIGN_IN: 'on',
    };
    expect(resolveServeSettings({}, env).security).toEqual({
      singleSignOn: {
        issuer: 'https://id.example.com',
        clientId: 'switchboard',
        clientSecret: 'from the variable',
        name: 'Acme SSO',
        publicUrl: 'https://switchboard.example.com',
      },
      passwordSignIn: true,
    });
    expect(() => resolveServeSettings({ oidcIssuer: 'https://id.example.com', oidcClientId: 'x' }, {})).toThrow(
      /client secret.*never on the command line/,
    );
    expect(() => resolveServeSettings({ passwordSignIn: false }, {})).toThrow(/only with single sign-on/);
    expect(() => resolveServeSettings({ oidcClientId: 'x' }, {})).toThrow(/--oidc-client-id needs/);
  });

  it.each([{ port: '-1' }, { port: '70000' }, { port: 'http' }, { mode: 'dev' }, { replace: true }])(
    'refuses %j',
    (flags) => {
      expect(() => resolveServeSettings(flags, {})).toThrow(UsageError);
    },
  );
});

describe('environment aliases (CLI)', () => {
  it.each([
    ['dev', 'development'],
    ['STG', 'staging'],
    ['Prod', 'production'],
    ['Development', 'development'],
    ['qa', undefined],
    ['', undefined],
  ])('%s → %s', (input, expected) => {
    expect(parseEnvironmentAlias(input)).toBe(expected);
  });
});
