import * as z from 'zod';
import { PROJECT_ROLES } from '../../db/schema/projects.js';
import { CAPABILITIES } from '../roles/capabilities.js';
import { nameSchema, timestampSchema } from '../shared/schemas.js';

export const createProjectBody = z.lazy(() =>
  z.strictObject({ name: nameSchema('name') }).meta({ id: 'CreateProjectRequest' }),
);
export const updateProjectBody = z.lazy(() =>
  z.strictObject({ name: nameSchema('name').optional() }).meta({ id: 'UpdateProjectRequest' }),
);

export const projectSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'prj_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      name: z.string(),
      ownerId: z.string().meta({ description: 'The creator. Authorization reads the members, not this.' }),
      role: z.enum(PROJECT_ROLES).meta({ description: "The caller's role in this project." }),
      capabilities: z.array(z.enum(CAPABILITIES)).meta({
        description:
          "What the caller's role allows in this project (as the member listing shows), so that clients keep no table of roles: a dashboard hides the controls it lacks.",
      }),
      createdAt: timestampSchema,
      updatedAt: timestampSchema,
    })
    .meta({ id: 'Project' }),
);
