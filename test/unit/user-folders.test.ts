import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir, defaultConfigDir, defaultDataDir } from '../../cli/user-folders.js';

describe('the command-line tool’s config folder', () => {
  it('is $XDG_CONFIG_HOME/switchboard on Linux, else ~/.config/switchboard', () => {
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe(join('/cfg', 'switchboard'));
    expect(defaultConfigDir({}, 'linux')).toBe(join(homedir(), '.config', 'switchboard'));
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '' }, 'linux')).toBe(join(homedir(), '.config', 'switchboard'));
  });

  it('is ~/Library/Application Support/Switchboard on macOS and %APPDATA%\\Switchboard on Windows', () => {
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/cfg' }, 'darwin')).toBe(
      join(homedir(), 'Library', 'Application Support', 'Switchboard'),
    );
    expect(defaultConfigDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).toBe(
      join('C:\\Users\\u\\AppData\\Roaming', 'Switchboard'),
    );
  });

  it('is not the data folder on Linux, where XDG separates the two', () => {
    const env = { XDG_CONFIG_HOME: '/cfg', XDG_DATA_HOME: '/data' };
    expect(defaultDataDir(env, 'linux')).toBe(join('/data', 'switchboard'));
    expect(defaultConfigDir(env, 'linux')).not.toBe(defaultDataDir(env, 'linux'));
  });
});

describe('the single executable’s cache folder', () => {
  it('is $XDG_CACHE_HOME/switchboard on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/cache' }, 'linux')).toBe(join('/cache', 'switchboard'));
    expect(defaultCacheDir({ XDG_CACHE_HOME: '' }, 'linux')).toBe(join(homedir(), '.cache', 'switchboard'));
    expect(defaultCacheDir({}, 'darwin')).toBe(join(homedir(), 'Library', 'Caches', 'Switchboard'));
    expect(defaultCacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32')).toBe(
      join('C:\\Users\\u\\AppData\\Local', 'Switchboard', 'Cache'),
    );
  });
});
