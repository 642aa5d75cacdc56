import { path, type Transport } from '../transport.js';
import type { CreateProjectInput, Project, ProjectList, UpdateProjectInput } from '../types.js';

/** Projects the signed-in user belongs to; each answer carries the user's `role` in it. */
export class ProjectsResource {
  constructor(private readonly transport: Transport) {}

  list(): Promise<ProjectList> {
    return this.transport.request({ method: 'GET', path: path`/v1/projects` });
  }

  /** The creator becomes the project's first OWNER. */
  create(input: CreateProjectInput): Promise<Project> {
    return this.transport.request({ method: 'POST', path: path`/v1/projects`, body: input });
  }

  get(projectId: string): Promise<Project> {
    return this.transport.request({ method: 'GET', path: path`/v1/projects/${projectId}` });
  }

  update(projectId: string, input: UpdateProjectInput): Promise<Project> {
    return this.transport.request({ method: 'PATCH', path: path`/v1/projects/${projectId}`, body: input });
  }

  /** Deletes the project with everything in it. Owners only. */
  delete(projectId: string): Promise<void> {
    return this.transport.request({ method: 'DELETE', path: path`/v1/projects/${projectId}` });
  }
}
