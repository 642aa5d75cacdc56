import { path, type Transport } from '../transport.js';
import type { AddMemberInput, CreateInvitationInput, Invitation, Member, MemberList, ProjectRole } from '../types.js';

/** Who has access to a project, with which role: members with an account, and invitations for those without. */
export class MembersResource {
  constructor(private readonly transport: Transport) {}

  list(projectId: string): Promise<MemberList> {
    return this.transport.request({ method: 'GET', path: path`/v1/projects/${projectId}/members` });
  }

  add(projectId: string, input: AddMemberInput): Promise<Member> {
    return this.transport.request({ method: 'POST', path: path`/v1/projects/${projectId}/members`, body: input });
  }

  /** An invitation for an address without an account; registering with its `token` makes them a member. */
  invite(projectId: string, input: CreateInvitationInput): Promise<Invitation> {
    return this.transport.request({ method: 'POST', path: path`/v1/projects/${projectId}/invitations`, body: input });
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
