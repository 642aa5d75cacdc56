import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { NotFoundPage } from './pages/not-found';
import { SignInPage } from './pages/sign-in';
import {
  auditSearch,
  connectionsSearch,
  liveStreamSearch,
  liveTailSearch,
  metricsSearch,
  pagedSearch,
  projectSearch,
  registerSearch,
  signInSearch,
  singleSignOnSearch,
  usageSearch,
  webhookLogSearch,
} from './search';
import type { SessionStore } from './session/session-store';
import { AppShellLayout } from './shell/app-shell';
import { ProjectLayout } from './shell/project-layout';
import { RouteError } from './shell/route-error';

export interface RouterContext {
  session: SessionStore;
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteError,
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: signInSearch,
  component: SignInPage,
});

const singleSignOnRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in/sso',
  validateSearch: singleSignOnSearch,
  component: lazyRouteComponent(() => import('./pages/sign-in-sso'), 'SingleSignOnPage'),
});

const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  validateSearch: registerSearch,
  component: lazyRouteComponent(() => import('./pages/register'), 'RegisterPage'),
});

/** Every page below needs a session: without one, sign-in, keeping the page asked for. */
const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: ({ context, location }) => {
    if (!context.session.signedIn) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
  },
  component: AppShellLayout,
});

const projectsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./pages/projects'), 'ProjectsPage'),
});

const projectRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/projects/$projectId',
  validateSearch: projectSearch,
  component: ProjectLayout,
});

const projectIndexRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: '/',
  beforeLoad: ({ params, search }) => {
    throw redirect({ to: '/projects/$projectId/connect', params, search });
  },
});

const connectRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'connect',
  component: lazyRouteComponent(() => import('./pages/connect'), 'ConnectPage'),
});

const keysRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'keys',
  component: lazyRouteComponent(() => import('./pages/keys'), 'KeysPage'),
});

const membersRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'members',
  component: lazyRouteComponent(() => import('./pages/members'), 'MembersPage'),
});

const auditRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'audit',
  validateSearch: auditSearch,
  component: lazyRouteComponent(() => import('./pages/audit'), 'AuditPage'),
});

const liveStreamsRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'live-streams',
  validateSearch: pagedSearch,
  component: lazyRouteComponent(() => import('./pages/live-streams'), 'LiveStreamsPage'),
});

const liveStreamRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'live-streams/$streamId',
  validateSearch: liveStreamSearch,
  component: lazyRouteComponent(() => import('./pages/live-stream'), 'LiveStreamPage'),
});

const chatRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'chat',
  validateSearch: pagedSearch,
  component: lazyRouteComponent(() => import('./pages/chat'), 'ChatPage'),
});

const roomsRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'rooms',
  validateSearch: pagedSearch,
  component: lazyRouteComponent(() => import('./pages/rooms/rooms'), 'RoomsPage'),
});

const roomRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'rooms/$roomId',
  component: lazyRouteComponent(() => import('./pages/rooms/room'), 'RoomPage'),
});

const testCallRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'rooms/$roomId/call',
  component: lazyRouteComponent(() => import('./pages/rooms/test-call'), 'TestCallPage'),
});

const webhooksRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'webhooks',
  component: lazyRouteComponent(() => import('./pages/webhooks/endpoints'), 'WebhooksPage'),
});

const webhookEndpointRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'webhooks/$webhookId',
  validateSearch: webhookLogSearch,
  component: lazyRouteComponent(() => import('./pages/webhooks/endpoint'), 'WebhookEndpointPage'),
});

const webhookDeliveryRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'webhooks/$webhookId/deliveries/$deliveryId',
  component: lazyRouteComponent(() => import('./pages/webhooks/delivery'), 'WebhookDeliveryPage'),
});

const recordingsRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'recordings',
  component: lazyRouteComponent(() => import('./pages/recordings/recordings'), 'RecordingsPage'),
});

const recordingRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'recordings/$recordingId',
  component: lazyRouteComponent(() => import('./pages/recordings/recording'), 'RecordingPage'),
});

const settingsRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'settings',
  component: lazyRouteComponent(() => import('./pages/settings'), 'SettingsPage'),
});

// ── Observability (metrics, errors, connections), usage and the live tail ─────────────────────────

const observabilityRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'observability',
  component: lazyRouteComponent(() => import('./pages/observability/layout'), 'ObservabilityLayout'),
});

const metricsRoute = createRoute({
  getParentRoute: () => observabilityRoute,
  path: '/',
  validateSearch: metricsSearch,
  component: lazyRouteComponent(() => import('./pages/observability/metrics'), 'MetricsPage'),
});

const errorsRoute = createRoute({
  getParentRoute: () => observabilityRoute,
  path: 'errors',
  validateSearch: pagedSearch,
  component: lazyRouteComponent(() => import('./pages/observability/errors'), 'ErrorsPage'),
});

const errorRoute = createRoute({
  getParentRoute: () => observabilityRoute,
  path: 'errors/$errorId',
  component: lazyRouteComponent(() => import('./pages/observability/error-detail'), 'ErrorDetailPage'),
});

const connectionsRoute = createRoute({
  getParentRoute: () => observabilityRoute,
  path: 'connections',
  validateSearch: connectionsSearch,
  component: lazyRouteComponent(() => import('./pages/observability/connections'), 'ConnectionsPage'),
});

const connectionRoute = createRoute({
  getParentRoute: () => observabilityRoute,
  path: 'connections/$connectionId',
  component: lazyRouteComponent(() => import('./pages/observability/connection-detail'), 'ConnectionDetailPage'),
});

const usageRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'usage',
  validateSearch: usageSearch,
  component: lazyRouteComponent(() => import('./pages/usage'), 'UsagePage'),
});

const liveTailRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'live',
  validateSearch: liveTailSearch,
  component: lazyRouteComponent(() => import('./pages/live-tail/live-tail'), 'LiveTailPage'),
});

const observabilityRoutes = [
  observabilityRoute.addChildren([metricsRoute, errorsRoute, errorRoute, connectionsRoute, connectionRoute]),
  usageRoute,
  liveTailRoute,
];

const routeTree = rootRoute.addChildren([
  signInRoute,
  singleSignOnRoute,
  registerRoute,
  signedInRoute.addChildren([
    projectsRoute,
    projectRoute.addChildren([
      projectIndexRoute,
      connectRoute,
      keysRoute,
      membersRoute,
      auditRoute,
      liveStreamsRoute,
      liveStreamRoute,
      chatRoute,
      roomsRoute,
      roomRoute,
      testCallRoute,
      webhooksRoute,
      webhookEndpointRoute,
      webhookDeliveryRoute,
      recordingsRoute,
      recordingRoute,
      settingsRoute,
      ...observabilityRoutes,
    ]),
  ]),
]);

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    scrollRestoration: true,
    // A page that fails shows its error in place of the page: the shell around it (navigation, sign-out) stays.
    defaultErrorComponent: RouteError,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
