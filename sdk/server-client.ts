import { type ClientOptions, path, Transport } from './transport.js';
import type { KeyWhoami } from './types.js';

export interface ServerClientOptions extends ClientOptions {
  /** A project API key, `sb_<env>_<public>.<secret>`. Keep production keys on your server. */
  apiKey: string;
}

/** The runtime API, for your backend: signed with a project API key, which brings its environment. */
export class ServerClient {
  private readonly transport: Transport;

  constructor(options: ServerClientOptions) {
    this.transport = new Transport(options, options.apiKey);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The key's id, project and environment (from the server's record, whatever the key text says). */
  whoami(): Promise<KeyWhoami> {
    return this.transport.request({ method: 'GET', path: path`/v1/whoami` });
  }
}
