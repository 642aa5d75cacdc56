import type { Transport } from '../transport.js';
import type { AddMemberInput, CreateInvitationInput, Invitation, Member, MemberList, ProjectRole } from '../types.js';

/** Who has access to a project, with which role: members with an account, and invitations for those without. */
export class MembersResource {
  constructor(private readonly transport: Transport) {}

  list(projectId: string): Promise<MemberList> {
    return this.transport.call('listMembers', { params: { id: projectId } });
  }

  add(projectId: string, input: AddMemberInput): Promise<Member> {
    return this.transport.call('addMember', { params: { id: projectId }, body: input });
  }

  /** An invitation for an address without an account; registering with its `token` makes them a member. */
  invite(projectId: string, input: CreateInvitationInput): Promise<Invitation> {
    return this.transport.call('createInvitation', { params: { id: projectId }, body: input });
  }

  setRole(projectId: string, userId: string, role: ProjectRole): Promise<Member> {
    return this.transport.call('updateMember', { params: { id: projectId, userId }, body: { role } });
  }

  remove(projectId: string, userId: string): Promise<void> {
    return this.transport.call('removeMember', { params: { id: projectId, userId } });
  }
}
