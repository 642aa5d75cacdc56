/** A seed file that cannot be applied: unreadable, invalid (each bad field named by its path), or refused. */
export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}
