import { addRoute, createRouter, findRoute } from 'rou3';

/**
 * The dashboard's pages, as its router (renderer/src/router.tsx, TanStack Router) names them: `$name` is a
 * parameter. The server answers a reload of one of these with the dashboard, and any other path outside its own with
 * 404. test/unit/dashboard-routes.test.ts builds the dashboard's router and checks that this is its list.
 */
export const DASHBOARD_ROUTES = [
  '/',
  '/sign-in',
  '/sign-in/sso',
  '/register',
  '/projects/$projectId',
  '/projects/$projectId/connect',
  '/projects/$projectId/keys',
  '/projects/$projectId/members',
  '/projects/$projectId/audit',
  '/projects/$projectId/live-streams',
  '/projects/$projectId/live-streams/$streamId',
  '/projects/$projectId/chat',
  '/projects/$projectId/rooms',
  '/projects/$projectId/rooms/$roomId',
  '/projects/$projectId/rooms/$roomId/call',
  '/projects/$projectId/webhooks',
  '/projects/$projectId/webhooks/$webhookId',
  '/projects/$projectId/webhooks/$webhookId/deliveries/$deliveryId',
  '/projects/$projectId/recordings',
  '/projects/$projectId/recordings/$recordingId',
  '/projects/$projectId/settings',
  '/projects/$projectId/observability',
  '/projects/$projectId/observability/errors',
  '/projects/$projectId/observability/errors/$errorId',
  '/projects/$projectId/observability/connections',
  '/projects/$projectId/observability/connections/$connectionId',
  '/projects/$projectId/usage',
  '/projects/$projectId/live',
] as const;

const pages = createRouter<string>();
for (const route of DASHBOARD_ROUTES) addRoute(pages, 'GET', route.replace(/\$(\w+)/g, ':$1'), route);

/** The dashboard's page `path` opens (its pattern), or undefined when none; a trailing slash is the same page. */
export function dashboardPage(path: string): string | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return findRoute(pages, 'GET', trimmed || '/')?.data;
}
