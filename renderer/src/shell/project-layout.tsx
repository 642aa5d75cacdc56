import { Outlet } from '@tanstack/react-router';
import { LiveEventsProvider } from '../api/live-events';
import { can, useProject } from '../api/projects';
import { useProjectRoute } from './project-page';

/** Every page of a project shares one live event stream of the environment on screen. */
export function ProjectLayout() {
  const { projectId, environment } = useProjectRoute();
  const { data: project } = useProject(projectId);
  return (
    <LiveEventsProvider projectId={projectId} environment={environment} enabled={can(project, 'project:read')}>
      <Outlet />
    </LiveEventsProvider>
  );
}
