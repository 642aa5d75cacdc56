import { integer } from 'drizzle-orm/sqlite-core';

/** Milliseconds since the epoch; presenters turn it into an ISO 8601 string. */
export const timestamp = (name: string) => integer(name, { mode: 'number' });
