import { path, type Transport } from '../transport.js';
import type { AddMemberInput, Member, MemberList, ProjectRole } from '../types.js';

/** Who has access to a project, with which role. There are no invitations: members need an account. */
export class MembersResource {
  constructor(private readonly transport: Transport) {}

  list(projectId: string): Promise<MemberList> {
    return this.transport.request({ method: 'GET', path: path`/v1/projects/${projectId}/members` });
  }

  add(projectId: string, input: AddMemberInput): Promise<Member> {
    return this.transport.request({ method: 'POST', path: path`/v1/projects/${projectId}/members`, body: input });
  }

  setRole(projectId: string, userId: string, role: ProjectRole): Promise<Member> {
    return this.transport.request({
      method: 'PATCH',
      path: path`/v1/projects/${projectId}/members/${userId}`,
      body: { role },
    });
  }

  remove(projectId: string, userId: string): Promise<void> {
    return this.transport.request({ method: 'DELETE', path: path`/v1/projects/${projectId}/members/${userId}` });
  }
}
