import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '../../../server/webhooks/policy.js';
import { chromiumUnavailable } from '../../support/chromium.js';
import {
  addMember,
  createConversation,
  createKey,
  createProject,
  registerUser,
  registerWebhook,
} from '../../support/factories.js';
import { eventually } from '../../support/wait.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { signIn, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: testing tools', () => {
  const dash = useDashboard();

  it('triggers an event from the webhooks page, then runs its retries to the end by moving the clock', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Clock demo');
    const receiver = await startReceiver();
    receiver.reply({ status: 500, body: 'down' });
    await registerWebhook(dash.api, project.id, owner, {
      url: receiver.url,
      environment: 'staging',
      events: ['message.created'],
    });
    try {
      const dp = await dash.openPage(`/projects/${project.id}/webhooks?env=staging`);
      await signIn(dp, owner.email);
      const { page } = dp;
      await visible(page.getByRole('heading', { name: 'Trigger an event' }));
      await page.getByRole('button', { name: 'Trigger', exact: true }).click();
      const created = page.getByRole('list', { name: 'Created for the event' });
      await visible(created);
      expect(await created.innerText()).toMatch(/msg_/);
      const [first] = await receiver.waitForRequests(1);
      expect(JSON.parse(first.rawBody.toString()).type).toBe('message.created');
      await visible(page.getByRole('cell', { name: '1', exact: true }));

      // A day ahead: every retry of the schedule falls due, and goes out at once, with the same event id.
      const clock = page.getByLabel('Staging clock');
      await visible(clock.getByText('Real time', { exact: true }));
      // The clock's time runs on screen, as the environment's clock does (nothing is asked of the server again).
      const shown = clock.locator('time');
      const readFirst = await shown.innerText();
      await expect.poll(() => shown.innerText(), { timeout: 5_000 }).not.toBe(readFirst);
      await page.getByRole('button', { name: '+1 day' }).click();
      await visible(clock.getByText('1 day ahead'));
      const attempts = await receiver.waitForRequests(MAX_ATTEMPTS);
      expect(new Set(attempts.map((attempt) => attempt.headers['service-event-id'])).size).toBe(1);
      await visible(page.getByRole('cell', { name: String(MAX_ATTEMPTS), exact: true }));
      await dp.checkPage('webhooks-testing-tools');

      await page.getByRole('button', { name: 'Back to real time' }).click();
      await visible(clock.getByText('Real time', { exact: true }));
      dp.expectClean();
      await dp.close();
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('injects a fault from Settings, shows it loudly on the environment’s pages, and switches it off', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Fault demo');
    const key = (await createKey(dash.api, project.id, owner, 'staging')).key;
    const advanced = await dash.api.post(`/v1/projects/${project.id}/environment/clock/advance?environment=staging`, {
      token: owner.token,
      body: { seconds: 7200 },
    });
    expect(advanced.status).toBe(200);
    const dp = await dash.openPage(`/projects/${project.id}/settings?env=staging`);
    await signIn(dp, owner.email);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'Fault injection' }));
    await visible(page.getByText('No faults are on in staging.'));

    const form = page.getByRole('form', { name: 'Add a fault' });
    await form.getByLabel('Fault', { exact: true }).click();
    await page.getByRole('option', { name: 'API answers 503' }).click();
    await form.getByRole('button', { name: 'Inject fault' }).click();
    const table = page.getByRole('table', { name: 'Faults on now' });
    await visible(table.getByText('api.unavailable'));
    await dp.checkPage('settings-faults');

    // The app's calls with the staging key now fail as asked; the dashboard's own calls do not.
    const refused = await dash.api.get('/v1/rooms', { token: key });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();

    // Every page of staging says so, loudly; development's do not. The fault ends in real time, which the banner
    // says as staging's clock runs ahead (moved before the page opened: its live event would refresh the page).
    await page.goto(`${dash.url}/projects/${project.id}/rooms?env=staging`);
    const banner = page.getByRole('status', { name: 'Faults injected' });
    await visible(banner);
    expect(await banner.innerText()).toMatch(/API answers 503: 100%/);
    await visible(banner.getByText(/real time \(the test clock runs 2 hours ahead; moving it does not end them\)\.$/));
    await dp.checkPage('rooms-faults-banner');
    // Wait for development's faults and rooms to load: only then does "no banner" mean something, and
    // leaving earlier would abort those requests.
    const developmentFaults = page.waitForResponse((res) =>
      /\/environment\/faults\?environment=development/.test(res.url()),
    );
    await page.goto(`${dash.url}/projects/${project.id}/rooms?env=development`);
    expect((await developmentFaults).status()).toBe(200);
    await visible(page.getByRole('heading', { name: 'Rooms', exact: true }));
    await visible(page.getByText('No rooms yet'));
    expect(await banner.count()).toBe(0);

    await page.goto(`${dash.url}/projects/${project.id}/settings?env=staging`);
    await page.getByRole('button', { name: 'Remove API answers 503' }).click();
    await visible(page.getByText('No faults are on in staging.'));
    await eventually(
      () => dash.api.get('/v1/rooms', { token: key }),
      (res) => res.status === 200,
    );
    dp.expectClean();
    await dp.close();
  }, 90_000);

  it('marks an attempt that an injected fault failed in the delivery inspector', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Inspector demo');
    const key = (await createKey(dash.api, project.id, owner, 'development')).key;
    const receiver = await startReceiver();
    try {
      const endpoint = await registerWebhook(dash.api, project.id, owner, { url: receiver.url });
      const added = await dash.api.post(`/v1/projects/${project.id}/environment/faults?environment=development`, {
        token: owner.token,
        body: { kind: 'webhook.failure' },
      });
      expect(added.status).toBe(201);
      await createConversation(dash.api, key, { members: ['alice'] });
      const deliveries = `/v1/projects/${project.id}/webhooks/${endpoint.id}/deliveries?environment=development`;
      const failed = await eventually(
        () => dash.api.get(deliveries, { token: owner.token }),
        (res) => res.body.data[0]?.attempts > 0,
      );
      const dp = await dash.openPage(
        `/projects/${project.id}/webhooks/${endpoint.id}/deliveries/${failed.body.data[0].id}`,
      );
      await signIn(dp, owner.email);
      const attempt = dp.page.getByRole('region', { name: 'Attempt 1' });
      await visible(attempt.getByText('Injected: webhook.failure'));
      await visible(attempt.getByText(/simulated failure, nothing was sent/));
      expect(receiver.requests).toHaveLength(0);
      await dp.checkPage('delivery-injected-fault');
      dp.expectClean();
      await dp.close();
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('tells a role without project:write why it has no testing controls', async () => {
    const owner = await registerUser(dash.api);
    const developer = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Look only');
    await addMember(dash.api, project.id, owner, developer, 'DEVELOPER');
    const dp = await dash.openPage(`/projects/${project.id}/settings`);
    await signIn(dp, developer.email);
    const { page } = dp;
    await visible(page.getByText('Your role (DEVELOPER) cannot move the test clock'));
    await visible(page.getByText('Your role (DEVELOPER) cannot inject faults'));
    expect(await page.getByRole('button', { name: '+1 hour' }).count()).toBe(0);
    dp.expectClean();
    await dp.close();
  }, 60_000);
});
