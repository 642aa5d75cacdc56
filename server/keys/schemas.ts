import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { nameSchema, timestampSchema } from '../shared/schemas.js';

export const createKeyBody = z.lazy(() =>
  z
    .strictObject({
      name: nameSchema('name'),
      environment: environmentSchema.optional().default('development'),
    })
    .meta({ id: 'CreateApiKeyRequest' }),
);

export const apiKeySchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'key_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      name: z.string(),
      environment: environmentSchema,
      createdAt: timestampSchema,
      lastUsedAt: timestampSchema.nullable().meta({ description: 'Updated at most once a minute.' }),
    })
    .meta({ id: 'ApiKey' }),
);

export const createdApiKeySchema = z.lazy(() =>
  apiKeySchema
    .unwrap()
    .extend({
      key: z.string().meta({
        description:
          'The full key, `<prefix>_<env segment>_<public>.<secret>`. Shown this once: only a hash of the secret is stored.',
        example: 'sb_dev_4Xq9T2mB7cKfR1sLwP3z.V8n2Jk5Q0aHd7Yt3Lm9Xc1Rb6Wf4Zs8Ge2Np5Kq0Ta',
      }),
    })
    .meta({ id: 'CreatedApiKey' }),
);
