import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/config.js';
import { desktopProfileDir, desktopServeSettings } from '../../main/config.js';

const USER_DATA = join('/home/someone/.config', 'Switchboard');

describe('desktop settings', () => {
  it('defaults to 127.0.0.1:4700, where SDKs look, and a data folder inside userData', () => {
    expect(desktopServeSettings({}, USER_DATA)).toEqual({
      port: 4700,
      host: '127.0.0.1',
      dataDir: join(USER_DATA, 'data'),
      mode: 'local',
      security: {},
      logLevel: 'info',
      accessLog: 'all',
    });
  });

  it('honours SWITCHBOARD_DATA_DIR and SWITCHBOARD_PORT, validated like the CLI', () => {
    const settings = desktopServeSettings({ SWITCHBOARD_DATA_DIR: '/tmp/sb', SWITCHBOARD_PORT: '4810' }, USER_DATA);
    expect(settings).toMatchObject({ port: 4810, dataDir: '/tmp/sb' });
    expect(() => desktopServeSettings({ SWITCHBOARD_PORT: 'eighty' }, USER_DATA)).toThrow(UsageError);
  });

  it('stays on loopback in local mode whatever the environment says', () => {
    const settings = desktopServeSettings({ SWITCHBOARD_HOST: '0.0.0.0', SWITCHBOARD_MODE: 'production' }, USER_DATA);
    expect(settings).toMatchObject({ host: '127.0.0.1', mode: 'local' });
  });

  it('keeps the Electron profile in userData, or inside a custom data dir', () => {
    expect(desktopProfileDir({}, USER_DATA)).toBe(USER_DATA);
    expect(desktopProfileDir({ SWITCHBOARD_DATA_DIR: 'scratch' }, USER_DATA)).toBe(
      join(resolve('scratch'), 'desktop-profile'),
    );
  });
});
