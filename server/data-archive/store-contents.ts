import { count } from 'drizzle-orm';
import { projects } from '../../db/schema/projects.js';
import { users } from '../../db/schema/users.js';
import type { Queries } from '../../db/store.js';

/**
 * What the store holds that a person made, for the refusal messages of imports and seeds: accounts and projects
 * (everything else belongs to one of them). A server that was started but never used holds neither; null means
 * empty. (describeContents says the same of a SQLite file no server has open.)
 */
export async function describeStoreContents(db: Queries): Promise<string | null> {
  const [{ accounts }] = await db.select({ accounts: count() }).from(users);
  const [{ owned }] = await db.select({ owned: count() }).from(projects);
  if (!accounts && !owned) return null;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(accounts, 'account')} and ${plural(owned, 'project')}`;
}
