import type * as z from 'zod';
import { toIso, toIsoOrNull } from '../clock.js';
import type { apiKeySchema, createdApiKeySchema } from './schemas.js';
import type { ApiKeyRow } from './service.js';

export const presentApiKey = (key: ApiKeyRow): z.input<typeof apiKeySchema> => ({
  id: key.id,
  name: key.name,
  environment: key.environment,
  createdAt: toIso(key.createdAt),
  lastUsedAt: toIsoOrNull(key.lastUsedAt),
});

export const presentCreatedApiKey = (key: ApiKeyRow, text: string): z.input<typeof createdApiKeySchema> => ({
  ...presentApiKey(key),
  key: text,
});
