import { Select } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useProjects } from '../api/projects';

/** Jumps to another project's Connect page, keeping the environment. */
export function ProjectSwitcher({ projectId }: { projectId: string | undefined }) {
  const { data: projects } = useProjects();
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  if (!projects?.length) return null;
  return (
    <Select
      aria-label="Project"
      placeholder="Choose a project"
      data={projects.map((p) => ({ value: p.id, label: p.name }))}
      value={projectId ?? null}
      onChange={(id) => {
        if (id)
          void navigate({ to: '/projects/$projectId/connect', params: { projectId: id }, search: { env: search.env } });
      }}
      allowDeselect={false}
      searchable
      w={220}
      visibleFrom="xs"
    />
  );
}
