import * as z from 'zod';
import { registerBody } from '../auth/schemas.js';
import { createConversationBody } from '../chat/schemas.js';
import { ENVIRONMENT_SEGMENTS, environmentSchema } from '../environments.js';
import { KEY_PREFIX, parseKeyText } from '../keys/key-text.js';
import { createKeyBody } from '../keys/schemas.js';
import { roleSchema } from '../members/schemas.js';
import { createProjectBody } from '../projects/schemas.js';
import { createRoomBody } from '../rooms/schemas.js';
import { registerWebhookBody } from '../webhooks/schemas.js';

/*
 * The seed file: what `switchboard serve --seed` creates on an empty data folder. Each object is the
 * API's own request body plus what the API would otherwise choose (an environment, a key's text, a
 * webhook's secret), so a seed means what the same calls would mean.
 */

const account = registerBody.unwrap().omit({ invitation: true });

const apiKey = createKeyBody.unwrap().extend({
  environment: environmentSchema,
  key: z.string().meta({
    description:
      'The key’s full text, `sb_<env>_<public>.<secret>` with the segment of its environment (dev, stg, prod): ' +
      '8 to 64 letters and digits, a dot, 16 to 128 letters and digits. Keep it stable in your .env and CI. A ' +
      'production-mode server refuses seeds that carry keys.',
    example: 'sb_dev_seedbackend01.0123456789abcdefghijklmnop',
  }),
});

const webhook = registerWebhookBody.unwrap().extend({
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9]{24,128}$/, 'must be whsec_ followed by 24 to 128 letters and digits')
    .optional()
    .meta({
      description:
        'The signing secret, so your app can verify deliveries with a secret it already holds; made up when ' +
        'absent (and then never shown). A production-mode server refuses seeds that carry secrets.',
    }),
});

const inEnvironment = { environment: environmentSchema.meta({ description: 'The environment it belongs to.' }) };

const project = createProjectBody.unwrap().extend({
  members: z
    .array(
      account.extend({ role: roleSchema }).meta({
        description:
          'An account created for this address (once, however many projects name it) and added with this role.',
      }),
    )
    .optional()
    .default([]),
  apiKeys: z.array(apiKey).optional().default([]),
  rooms: z.array(createRoomBody.unwrap().extend(inEnvironment)).optional().default([]),
  conversations: z.array(createConversationBody.unwrap().extend(inEnvironment)).optional().default([]),
  webhooks: z.array(webhook).optional().default([]),
});

export const SEED_VERSION = 1;

export const seedSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'Where editors find this schema.' }),
    version: z
      .literal(SEED_VERSION)
      .optional()
      .meta({ description: `The seed format; ${SEED_VERSION}.` }),
    user: account.meta({ description: 'The account that owns every project of the seed.' }),
    projects: z.array(project).optional().default([]),
  })
  .superRefine((seed, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const accounts = new Map<string, { password: string; path: (string | number)[] }>([
      [seed.user.email.toLowerCase(), { password: seed.user.password, path: ['user'] }],
    ]);
    const keyIds = new Set<string>();
    seed.projects.forEach((p, i) => {
      const at = (...rest: (string | number)[]) => ['projects', i, ...rest];
      p.members.forEach((member, j) => {
        const email = member.email.toLowerCase();
        const seen = accounts.get(email);
        if (email === seed.user.email.toLowerCase())
          issue(at('members', j, 'email'), 'is the seed’s user, who owns the project already');
        else if (seen && seen.password !== member.password)
          issue(at('members', j, 'password'), `differs from the password given for ${email} before`);
        else accounts.set(email, { password: member.password, path: at('members', j) });
        if (p.members.findIndex((m) => m.email.toLowerCase() === email) !== j)
          issue(at('members', j, 'email'), 'is listed twice in this project');
      });
      p.apiKeys.forEach((key, j) => {
        const parsed = parseKeyText(key.key);
        const segment = ENVIRONMENT_SEGMENTS[key.environment];
        if (!parsed || !key.key.startsWith(`${KEY_PREFIX}_${segment}_`))
          issue(
            at('apiKeys', j, 'key'),
            `must be a ${key.environment} key: ${KEY_PREFIX}_${segment}_ then 8 to 64 letters and digits, a dot, ` +
              'and 16 to 128 letters and digits',
          );
        else if (keyIds.has(parsed.publicId)) issue(at('apiKeys', j, 'key'), 'has the same public part as another key');
        else keyIds.add(parsed.publicId);
      });
      const unique = (list: 'rooms' | 'conversations') =>
        p[list].forEach((item, j) => {
          const same = (other: { environment: string; name: string }) =>
            other.environment === item.environment && other.name === item.name;
          if (p[list].findIndex(same) !== j)
            issue(at(list, j, 'name'), `is used by another of the project's ${list} in ${item.environment}`);
        });
      unique('rooms');
      unique('conversations');
    });
  })
  .meta({ title: 'Switchboard seed file' });

export type Seed = z.output<typeof seedSchema>;
/** A seed as written, before defaults and normalisation (environments in any letter case, lists optional). */
export type SeedInput = z.input<typeof seedSchema>;

/** The JSON Schema that editors validate seed files with (served at /schemas/seed.json). */
export const seedJsonSchema = () => z.toJSONSchema(seedSchema, { io: 'input', unrepresentable: 'any' });
