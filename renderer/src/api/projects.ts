import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Capability, Project } from '../sdk';
import { useClient } from '../session/session-context';
import { SHOWN_INLINE } from './query-client';

export const projectKeys = {
  all: ['projects'] as const,
  one: (projectId: string) => ['projects', projectId] as const,
};

export function useProjects() {
  const client = useClient();
  return useQuery({ queryKey: projectKeys.all, queryFn: async () => (await client.projects.list()).data });
}

export function useProject(projectId: string, enabled = true) {
  const client = useClient();
  // Its failure is the project page's (its QueryStatus, or ProjectLayout's not-found page), not a toast as well.
  return useQuery({
    ...SHOWN_INLINE,
    queryKey: projectKeys.one(projectId),
    queryFn: () => client.projects.get(projectId),
    enabled,
  });
}

/** What the signed-in user may do in the project, from the capabilities the server lists for their role. */
export function can(project: Project | undefined, capability: Capability): boolean {
  return project?.capabilities.includes(capability) ?? false;
}

export function useCreateProject() {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: (name: string) => client.projects.create({ name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

export function useRenameProject(projectId: string) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: (name: string) => client.projects.update(projectId, { name }),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.one(projectId), project);
      return queryClient.invalidateQueries({ queryKey: projectKeys.all });
    },
  });
}

export function useDeleteProject(projectId: string) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: () => client.projects.delete(projectId),
    // The project's own queries go once its pages are left (see forgetProject): removed while a page still
    // watches them, they would be fetched again and answer 404.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all, exact: true }),
  });
}

/** Drops what was cached about a deleted project, after leaving its pages. */
export function forgetProject(queryClient: QueryClient, projectId: string): void {
  queryClient.removeQueries({ queryKey: projectKeys.one(projectId) });
}
