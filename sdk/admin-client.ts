import { type ClientOptions, Transport } from './transport.js';
import type { ServerNodeList } from './types.js';

export interface AdminClientOptions extends ClientOptions {
  /** The server's admin token, `sbadmin_…`: the `admin-token` file of its data folder. */
  adminToken: string;
}

/** What only the server's operator may do, with the admin token rather than an account. */
export class AdminClient {
  private readonly transport: Transport;

  constructor(options: AdminClientOptions) {
    this.transport = new Transport(options, options.adminToken);
  }

  /** Every server running on the database and reachable through Redis, oldest first (one, without Redis). */
  nodes(): Promise<ServerNodeList> {
    return this.transport.call('listServerNodes');
  }

  /**
   * A consistent backup of the whole server as a gzip'd tar archive (format `switchboard-archive`), streamed:
   * write it to a file, and restore it with `switchboard serve --import`.
   */
  backup(): Promise<ReadableStream<Uint8Array>> {
    return this.transport.download({ path: '/v1/server/backup' }, 'application/gzip');
  }
}
