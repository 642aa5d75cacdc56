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
  liveStreamSearch,
  pagedSearch,
  projectSearch,
  registerSearch,
  signInSearch,
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

const settingsRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: 'settings',
  component: lazyRouteComponent(() => import('./pages/settings'), 'SettingsPage'),
});

const routeTree = rootRoute.addChildren([
  signInRoute,
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
      settingsRoute,
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
