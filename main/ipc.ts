import { type IpcMainInvokeEvent, ipcMain } from 'electron';
import type { BridgeChannel, BridgeChannels } from './bridge.js';
import { isSameOrigin } from './navigation.js';

type Handler<C extends BridgeChannel> = (event: IpcMainInvokeEvent) => BridgeChannels[C] | Promise<BridgeChannels[C]>;

/** One named channel; only pages served by the embedded server may call it. */
function handle<C extends BridgeChannel>(channel: C, origin: string, handler: Handler<C>): void {
  ipcMain.handle(channel, (event) => {
    const frameUrl = event.senderFrame?.url ?? '';
    if (!isSameOrigin(frameUrl, origin)) throw new Error(`${channel} refused for ${frameUrl || 'an unknown frame'}`);
    return handler(event);
  });
}

/** The main-process side of the preload's bridge (see bridge.ts). */
export function registerBridgeHandlers(serverUrl: string): void {
  const origin = new URL(serverUrl).origin;
  handle('switchboard:server-url', origin, () => serverUrl);
}
