import * as z from 'zod';
import { environmentResetSchema } from '../environment-reset/schemas.js';
import { environmentSchema } from '../environments.js';
import { timestampSchema } from '../shared/schemas.js';

/** A snapshot's name: a path segment and a word on a command line, as a test suite would name it. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const nameSchema = z
  .string()
  .regex(SNAPSHOT_NAME, 'must be 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit')
  .meta({ description: 'Unique in the environment: 1 to 64 letters, digits, `.`, `-` or `_`.', example: 'seeded' });

export const saveSnapshotBody = z.lazy(() =>
  z
    .strictObject({
      name: nameSchema,
      replace: z
        .boolean()
        .optional()
        .default(false)
        .meta({ description: 'Replace a snapshot of that name; without it, an existing name is refused (409).' }),
    })
    .meta({ id: 'SaveEnvironmentSnapshotRequest' }),
);
export type SaveSnapshotInput = z.infer<typeof saveSnapshotBody>;

/** The counts of a snapshot use an environment reset's names: a snapshot holds exactly what a reset removes. */
const countsSchema = () => environmentResetSchema.unwrap().shape.removed;

export const environmentSnapshotSchema = z.lazy(() =>
  z
    .object({
      name: nameSchema,
      environment: environmentSchema,
      createdAt: timestampSchema,
      createdBy: z.string().nullable().meta({ description: 'The address of the member who saved it.' }),
      sizeBytes: z.int().min(0).meta({ description: 'How much room it takes in the database, compressed.' }),
      counts: countsSchema().meta({ description: 'How many of each it holds, by the names of a reset’s counts.' }),
    })
    .meta({ id: 'EnvironmentSnapshot' }),
);

export const snapshotRestoreSchema = z.lazy(() =>
  z
    .object({
      environment: environmentSchema,
      snapshot: nameSchema,
      restoredAt: timestampSchema,
      removed: countsSchema().meta({ description: 'What the environment held before, removed as a reset does.' }),
      restored: countsSchema().meta({
        description:
          'What the snapshot gave back: all it holds, but for the webhook deliveries (and their attempts) of ' +
          'endpoints deleted since it was saved.',
      }),
    })
    .meta({ id: 'EnvironmentSnapshotRestore' }),
);
