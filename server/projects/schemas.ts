import { z } from 'zod';
import { PROJECT_ROLES } from '../../db/schema/projects.js';
import { nameSchema, timestampSchema } from '../shared/schemas.js';

export const createProjectBody = z.strictObject({ name: nameSchema('name') }).meta({ id: 'CreateProjectRequest' });
export const updateProjectBody = z
  .strictObject({ name: nameSchema('name').optional() })
  .meta({ id: 'UpdateProjectRequest' });

export const projectSchema = z
  .object({
    id: z.string().meta({ example: 'prj_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
    name: z.string(),
    ownerId: z.string().meta({ description: 'The creator. Authorization reads the members, not this.' }),
    role: z.enum(PROJECT_ROLES).meta({ description: "The caller's role in this project." }),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Project' });
