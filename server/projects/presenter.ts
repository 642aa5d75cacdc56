import type * as z from 'zod';
import type { ProjectRole } from '../../db/schema/projects.js';
import { toIso } from '../clock.js';
import { capabilitiesOf } from '../roles/capabilities.js';
import type { projectSchema } from './schemas.js';
import type { ProjectRow } from './service.js';

export const presentProject = (project: ProjectRow, role: ProjectRole): z.input<typeof projectSchema> => ({
  id: project.id,
  name: project.name,
  ownerId: project.ownerId,
  role,
  capabilities: capabilitiesOf(role),
  createdAt: toIso(project.createdAt),
  updatedAt: toIso(project.updatedAt),
});
