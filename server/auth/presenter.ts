import type * as z from 'zod';
import { toIso } from '../clock.js';
import type { sessionSchema, userSchema } from './schemas.js';
import type { UserRow } from './service.js';

export const presentUser = (user: Pick<UserRow, 'id' | 'email' | 'name'>): z.input<typeof userSchema> => ({
  id: user.id,
  email: user.email,
  name: user.name,
});

export const presentSession = (session: {
  token: string;
  expiresAt: number;
  user: UserRow;
}): z.input<typeof sessionSchema> => ({
  token: session.token,
  expiresAt: toIso(session.expiresAt),
  user: presentUser(session.user),
});
