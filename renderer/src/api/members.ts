import { type MutationMeta, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddMemberInput, CreateInvitationInput, ProjectRole } from '../sdk';
import { useClient } from '../session/session-context';
import { projectKeys } from './projects';
import { SHOWN_INLINE } from './query-client';

const membersKey = (projectId: string) => ['members', projectId] as const;

export function useMembers(projectId: string, enabled = true) {
  const client = useClient();
  return useQuery({
    queryKey: membersKey(projectId),
    queryFn: async () => (await client.members.list(projectId)).data,
    enabled,
  });
}

/** After any change: the list, and the project (the caller may have changed their own role). */
function useMemberMutation<Input, Output>(
  projectId: string,
  mutationFn: (input: Input) => Promise<Output>,
  options: { meta?: MutationMeta } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: membersKey(projectId) }),
        queryClient.invalidateQueries({ queryKey: projectKeys.all }),
      ]),
  });
}

export function useAddMember(projectId: string) {
  const client = useClient();
  return useMemberMutation(projectId, (input: AddMemberInput) => client.members.add(projectId, input), SHOWN_INLINE);
}

export function useSetMemberRole(projectId: string) {
  const client = useClient();
  return useMemberMutation(projectId, ({ userId, role }: { userId: string; role: ProjectRole }) =>
    client.members.setRole(projectId, userId, role),
  );
}

export function useRemoveMember(projectId: string) {
  const client = useClient();
  return useMemberMutation(projectId, (userId: string) => client.members.remove(projectId, userId));
}

/** An invitation for an address without an account: registering with its token makes them a member. */
export function useInviteMember(projectId: string) {
  const client = useClient();
  return useMutation({ mutationFn: (input: CreateInvitationInput) => client.members.invite(projectId, input) });
}
