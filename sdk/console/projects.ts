import type { Transport } from '../transport.js';
import type { CreateProjectInput, Project, ProjectList, UpdateProjectInput } from '../types.js';

/** Projects the signed-in user belongs to; each answer carries the user's `role` in it. */
export class ProjectsResource {
  constructor(private readonly transport: Transport) {}

  list(): Promise<ProjectList> {
    return this.transport.call('listProjects');
  }

  /** The creator becomes the project's first OWNER. */
  create(input: CreateProjectInput): Promise<Project> {
    return this.transport.call('createProject', { body: input });
  }

  get(projectId: string): Promise<Project> {
    return this.transport.call('getProject', { params: { id: projectId } });
  }

  update(projectId: string, input: UpdateProjectInput): Promise<Project> {
    return this.transport.call('updateProject', { params: { id: projectId }, body: input });
  }

  /** Deletes the project with everything in it. Owners only. */
  delete(projectId: string): Promise<void> {
    return this.transport.call('deleteProject', { params: { id: projectId } });
  }
}
