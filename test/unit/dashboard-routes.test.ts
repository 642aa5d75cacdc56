import { describe, expect, it } from 'vitest';
import { DASHBOARD_ROUTES, dashboardPage } from '../../server/http/dashboard-routes.js';

/**
 * The dashboard's router module, loaded by its path: Vitest runs its .tsx as the dashboard's build does, while this
 * project's tsc, whose settings are Node's, leaves it to renderer/tsconfig.json.
 */
const ROUTER_MODULE: string = '../../renderer/src/router.tsx';
interface DashboardRouterModule {
  createAppRouter(context: unknown): { routesByPath: Record<string, unknown> };
}

describe("the server's list of the dashboard's pages", () => {
  it("is the dashboard's router's, page for page", async () => {
    // Built as the dashboard builds it; the context is only read when a page loads.
    const { createAppRouter } = (await import(ROUTER_MODULE)) as DashboardRouterModule;
    const router = createAppRouter({});
    expect([...DASHBOARD_ROUTES].sort()).toEqual(Object.keys(router.routesByPath).sort());
  });

  it('matches a page by its parameters, with or without a trailing slash, and nothing else', () => {
    expect(dashboardPage('/')).toBe('/');
    expect(dashboardPage('/projects/prj_1/webhooks/wh_2/deliveries/whd_3')).toBe(
      '/projects/$projectId/webhooks/$webhookId/deliveries/$deliveryId',
    );
    expect(dashboardPage('/projects/prj_1/keys/')).toBe('/projects/$projectId/keys');
    expect(dashboardPage('/metrics')).toBeUndefined();
    expect(dashboardPage('/projects')).toBeUndefined();
    expect(dashboardPage('/projects/prj_1/keys/key_1')).toBeUndefined();
  });
});
