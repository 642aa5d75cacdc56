import { Outlet } from '@tanstack/react-router';
import { isNotFound } from '../api/errors';
import { LiveEventsProvider } from '../api/live-events';
import { can, useProject } from '../api/projects';
import { NotFound } from '../pages/not-found';
import { useProjectRoute } from './project-page';

/**
 * Every page of a project shares one live event stream of the environment on screen. A project that does not exist
 * (a mistyped or stale address, a project deleted or left) has no pages: the way back to the list instead.
 */
export function ProjectLayout() {
  const { projectId, environment } = useProjectRoute();
  const { data: project, error } = useProject(projectId);
  if (isNotFound(error))
    return (
      <NotFound
        title="Project not found"
        explanation={`There is no project ${projectId}, or you are not one of its members.`}
      />
    );
  return (
    <LiveEventsProvider projectId={projectId} environment={environment} enabled={can(project, 'project:read')}>
      <Outlet />
    </LiveEventsProvider>
  );
}
