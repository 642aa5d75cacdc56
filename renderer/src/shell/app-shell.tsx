import { AppShell, Burger, Group, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet, useMatchRoute, useParams, useSearch } from '@tanstack/react-router';
import { isNotFound } from '../api/errors';
import { can, useProject } from '../api/projects';
import { NavLinkLink } from '../components/links';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { ProjectSwitcher } from './project-switcher';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';
import { UserMenu } from './user-menu';

/** The signed-in frame: header (project switcher, theme, account), the project's pages on the side, the page. */
export function AppShellLayout() {
  const [navOpen, { toggle, close }] = useDisclosure();
  const { projectId: addressed } = useParams({ strict: false });
  // A project that does not exist has no pages to list (ProjectLayout says so, with the way back).
  const missing = isNotFound(useProject(addressed ?? '', Boolean(addressed)).error);
  const projectId = missing ? undefined : addressed;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !navOpen, desktop: !projectId } }}
      padding="md"
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {projectId ? (
              <Burger opened={navOpen} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Project pages" />
            ) : null}
            <Text component={Link} to="/" fw={700} size="lg" c="blue" td="none">
              Switchboard
            </Text>
            <ProjectSwitcher projectId={projectId} />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      {projectId ? (
        <AppShell.Navbar p="xs" component="nav" aria-label="Project pages">
          <ScrollArea>
            <ProjectNav projectId={projectId} onNavigate={close} />
          </ScrollArea>
        </AppShell.Navbar>
      ) : null}
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

const PAGES = [
  { to: '/projects/$projectId/connect', label: 'Connect', needs: null },
  { to: '/projects/$projectId/keys', label: 'API keys', needs: 'keys:read' },
  { to: '/projects/$projectId/rooms', label: 'Rooms', needs: 'project:read' },
  { to: '/projects/$projectId/live-streams', label: 'Live streams', needs: 'project:read' },
  { to: '/projects/$projectId/chat', label: 'Chat', needs: 'chat:read' },
  { to: '/projects/$projectId/webhooks', label: 'Webhooks', needs: 'webhooks:read' },
  { to: '/projects/$projectId/observability', label: 'Observability', needs: 'project:read' },
  { to: '/projects/$projectId/live', label: 'Live tail', needs: 'project:read' },
  { to: '/projects/$projectId/recordings', label: 'Recordings', needs: 'project:read' },
  { to: '/projects/$projectId/usage', label: 'Usage', needs: 'usage:read' },
  { to: '/projects/$projectId/members', label: 'Members', needs: 'members:read' },
  { to: '/projects/$projectId/audit', label: 'Audit log', needs: 'audit:read' },
  { to: '/projects/$projectId/settings', label: 'Settings', needs: null },
] as const;

/** The project's pages the user's role may see; the environment stays as it is when moving between them. */
function ProjectNav({ projectId, onNavigate }: { projectId: string; onNavigate(): void }) {
  const { data: project } = useProject(projectId);
  const search = useSearch({ strict: false });
  const matchRoute = useMatchRoute();
  return (
    <>
      {PAGES.filter((page) => page.needs === null || can(project, page.needs)).map((page) => (
        <NavLinkLink
          key={page.to}
          to={page.to}
          params={{ projectId }}
          search={{ env: search.env }}
          label={page.label}
          onClick={onNavigate}
          // Fuzzy: a page's sub-pages (an endpoint, a delivery) keep it marked.
          active={Boolean(matchRoute({ to: page.to, params: { projectId }, fuzzy: true }))}
          styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
        />
      ))}
    </>
  );
}
