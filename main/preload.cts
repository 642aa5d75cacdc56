// CommonJS on purpose (compiled to preload.cjs): a sandboxed preload cannot be an ES module, and
// its `require` only knows `electron` and a few Node built-ins, so this file imports types only.
import { contextBridge, ipcRenderer } from 'electron';
import type { BridgeChannel, BridgeChannels, SwitchboardBridge, VersionArgument } from './bridge.js';

const VERSION_PREFIX = '--switchboard-version=' satisfies VersionArgument;

function invoke<C extends BridgeChannel>(channel: C): Promise<BridgeChannels[C]> {
  return ipcRenderer.invoke(channel);
}

const version = process.argv.find((arg) => arg.startsWith(VERSION_PREFIX))?.slice(VERSION_PREFIX.length) ?? '0.0.0';

contextBridge.exposeInMainWorld('switchboard', {
  version,
  serverUrl: () => invoke('switchboard:server-url'),
} satisfies SwitchboardBridge);
