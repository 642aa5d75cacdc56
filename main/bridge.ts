/**
 * The contract between the preload and the dashboard, shared by the main process, the preload and
 * the renderer. Types only: the sandboxed preload can `require` nothing but `electron`, so it may
 * import this file with `import type` and nothing else.
 */

/** What the preload exposes to the dashboard as `window.switchboard`. */
export interface SwitchboardBridge {
  /** The desktop app's version. */
  readonly version: string;
  /** Base URL of the embedded server, e.g. `http://127.0.0.1:53124`. */
  serverUrl(): Promise<string>;
}

/** The IPC channels the preload may invoke, each with what its handler resolves to. */
export interface BridgeChannels {
  'switchboard:server-url': string;
}

export type BridgeChannel = keyof BridgeChannels;

/** The renderer argument (`webPreferences.additionalArguments`) that carries the app version. */
export type VersionArgument = `--switchboard-version=${string}`;
