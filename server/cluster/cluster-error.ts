/** The server cannot take its place in a cluster at start: the message is one line, fit to print as it is. */
export class ClusterError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ClusterError';
  }
}
