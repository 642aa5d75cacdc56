import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../sdk/webhooks.js';
import { chromiumUnavailable } from '../../support/chromium.js';
import {
  addMember,
  createConversation,
  createKey,
  createProject,
  registerUser,
  registerWebhook,
  sendMessage,
} from '../../support/factories.js';
import { startReceiver, type WebhookReceiver } from '../../support/webhook-receiver.js';
import { signIn, tabTo, useDashboard, visible } from './harness.js';

/**
 * The server's clock runs with the wall clock plus an offset the test moves: a retry due in 10 s comes due at once,
 * while the page (on the wall clock) still counts down sensibly.
 */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: the webhook inspector', () => {
  const dash = useDashboard({ server: { clock } });
  const receivers: WebhookReceiver[] = [];
  afterAll(() => Promise.all(receivers.map((receiver) => receiver.close())));

  async function receiver(): Promise<WebhookReceiver> {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  }

  /** Picks `option` in the Mantine select or multi-select labelled `label`. */
  async function choose(page: Page, label: string, option: string): Promise<void> {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    // A multi-select stays open for more: close it as a user would.
    await page.keyboard.press('Escape');
  }

  it('adds an endpoint, shows a delivery failing then succeeding with both attempts, resends it, filters the log', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Hooks');
    const { key } = await createKey(dash.api, project.id, owner, 'development');
    const hook = await receiver();
    hook.reply((_request, index) =>
      index === 0 ? { status: 500, body: 'not ready yet' } : { status: 200, body: `thanks ${index}` },
    );

    const dp = await dash.openPage(`/projects/${project.id}/webhooks`);
    const { page } = dp;
    await signIn(dp, owner.email);
    await visible(page.getByText('No development webhook endpoints yet'));
    await visible(page.getByText('switchboard webhooks listen --forward-to'));
    await dp.checkPage('webhooks-empty');

    // Added from the keyboard: the secret is shown once, with copy.
    await tabTo(page, page.getByRole('button', { name: 'Add endpoint' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    // A URL without its scheme: the server's refusal, shown as it is, says what to write.
    dp.expectFailure(400, /\/webhooks$/);
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill('localhost:3000/hook');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await visible(dialog.getByText('The endpoint was not added'));
    await visible(dialog.getByText('Webhook URL refused: it has no scheme: write http://localhost:3000/hook.'));
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(hook.url);
    await choose(page, 'Events', 'message.created');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const secretBlock = dialog.getByLabel('The endpoint’s signing secret');
    await visible(secretBlock);
    const secret = (await secretBlock.innerText()).trim();
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    await dialog.getByRole('button', { name: 'Copy signing secret' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await dp.checkPage('webhooks-secret');
    await dialog.getByRole('link', { name: 'Open the endpoint' }).click();
    await visible(page.getByRole('heading', { name: hook.url }));
    await visible(page.getByText('No deliveries yet'));

    // Real traffic: a chat message sent with the key. The first attempt fails (500); the log shows it live.
    const conversation = await createConversation(dash.api, key, { members: ['alice'] });
    await sendMessage(dash.api, key, conversation.id, { text: 'Hello hooks', senderId: 'alice' });
    const [first] = await hook.waitForRequests(1);
    // The secret the page showed is the one the server signs with.
    expect(verifyWebhook(secret, String(first.headers['service-signature']), first.rawBody)).toBe(true);
    const row = page.getByRole('row').filter({ hasText: 'message.created' });
    await visible(row.getByText('HTTP 500'));
    await visible(row.getByText('PENDING'));
    await visible(row.getByText(/^in \d+ s$/));

    await row.getByRole('link', { name: 'message.created' }).click();
    await visible(page.getByRole('heading', { name: 'Webhook delivery' }));
    const attempt1 = page.getByRole('region', { name: 'Attempt 1' });
    await visible(attempt1.getByText('HTTP 500'));
    expect(await attempt1.getByLabel('Response body of attempt 1').innerText()).toBe('not ready yet');
    await visible(attempt1.getByText(String(first.headers['service-signature'])));
    expect(await page.getByLabel('Request body as sent').innerText()).toBe(first.rawBody.toString('utf8'));
    await visible(page.getByText(/^in \d+ s$/));
    await dp.checkPage('webhook-delivery-retrying');

    // The retry comes due (the server's clock moves 10 s) and succeeds: the page shows it without a reload.
    clock.offset += 10_000;
    await dash.server.runDueWebhooks();
    expect(hook.requests).toHaveLength(2);
    const attempt2 = page.getByRole('region', { name: 'Attempt 2' });
    await visible(attempt2.getByText('HTTP 200'));
    expect(await attempt2.getByLabel('Response body of attempt 2').innerText()).toBe('thanks 1');
    await visible(page.getByText('SUCCEEDED'));
    await visible(page.getByText('None: settled'));

    // Resent from the keyboard: a third attempt, same event id.
    await tabTo(page, page.getByRole('button', { name: 'Resend' }));
    await page.keyboard.press('Enter');
    await hook.waitForRequests(3);
    expect(hook.requests[2].headers['service-event-id']).toBe(first.headers['service-event-id']);
    await visible(page.getByRole('region', { name: 'Attempt 3' }).getByText('thanks 2'));
    await dp.checkPage('webhook-delivery');

    // A test event of another type, then the log's filters (kept in the URL).
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: hook.url }).click();
    await choose(page, 'Event type', 'room.created');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await hook.waitForRequests(4);
    const deliveries = page.getByRole('row').filter({ hasText: /whd_/ });
    await visible(deliveries.filter({ hasText: 'room.created' }).getByText('SUCCEEDED'));
    expect(await deliveries.count()).toBe(2);

    const log = page.getByRole('region', { name: 'Delivery log' });
    await choose(page, 'Filter by event type', 'room.created');
    await page.waitForURL(/eventType=room.created/);
    await deliveries.filter({ hasText: 'message.created' }).waitFor({ state: 'detached' });
    expect(await deliveries.count()).toBe(1);
    await choose(page, 'Filter by status', 'FAILED');
    await visible(log.getByText('No delivery matches these filters.'));
    await page.reload();
    await visible(log.getByText('No delivery matches these filters.'));
    await log.getByRole('button', { name: 'Clear filters' }).click();
    await visible(deliveries.filter({ hasText: 'message.created' }));
    expect(await deliveries.count()).toBe(2);
    await dp.checkPage('webhook-endpoint');
    dp.expectClean();
    await dp.close();
  }, 90_000);

  it('edits an endpoint, shows its failure count, disables and re-enables it, deletes it', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Hooks 2');
    const hook = await receiver();
    hook.reply({ status: 503, body: 'down for maintenance' });
    const endpoint = await registerWebhook(dash.api, project.id, owner, { url: `${hook.url}?v=1` });

    const dp = await dash.openPage(`/projects/${project.id}/webhooks`);
    const { page } = dp;
    await signIn(dp, owner.email);
    const row = page.getByRole('row').filter({ hasText: endpoint.id });
    await visible(row.getByText('All events'));
    await row.getByRole('link', { name: `${hook.url}?v=1` }).click();

    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(hook.url);
    await choose(page, 'Events', 'room.created');
    await choose(page, 'Events', 'room.deleted');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await visible(page.getByRole('heading', { name: hook.url, exact: true }));
    await visible(page.getByText('room.deleted', { exact: true }).first());

    // A failing test event: the failure count shows it, live.
    await page.getByRole('button', { name: 'Send test event' }).click();
    await hook.waitForRequests(1);
    await visible(page.getByText('1 (50 disable it)'));

    await page.getByRole('button', { name: 'Disable' }).click();
    await visible(page.getByText(`Disabled by ${owner.email}.`));
    await visible(page.getByText('Disabled', { exact: true }));
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await dp.checkPage('webhook-endpoint-disabled');
    await page.getByRole('button', { name: 'Enable' }).click();
    await visible(page.getByText('0 (50 disable it)'));
    await visible(page.getByText('Enabled', { exact: true }));

    // A VIEWER reads the log and the attempts, but neither the body (it can carry message text) nor any control.
    const viewer = await registerUser(dash.api);
    await addMember(dash.api, project.id, owner, viewer, 'VIEWER');
    const [failed] = (
      await dash.api.get(`/v1/projects/${project.id}/webhooks/${endpoint.id}/deliveries`, { token: owner.token })
    ).body.data;
    const vp = await dash.openPage(`/projects/${project.id}/webhooks/${endpoint.id}/deliveries/${failed.id}`);
    await signIn(vp, viewer.email);
    await visible(vp.page.getByRole('region', { name: 'Attempt 1' }).getByText('down for maintenance'));
    await visible(vp.page.getByText('Your role (VIEWER) cannot see the body sent'));
    expect(await vp.page.getByRole('button', { name: 'Resend' }).count()).toBe(0);
    vp.expectClean();
    await vp.close();

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await visible(page.getByText('No development webhook endpoints yet'));
    const left = await dash.api.get(`/v1/projects/${project.id}/webhooks`, { token: owner.token });
    expect(left.body.data).toEqual([]);
    dp.expectClean();
    await dp.close();
  }, 60_000);

  it('keeps the endpoints table usable on a 420 px wide screen: the URL reads, its actions are reachable', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Narrow');
    const hook = await receiver();
    const url = `${hook.url}/a/rather/long/path/for/webhooks?source=switchboard`;
    const endpoint = await registerWebhook(dash.api, project.id, owner, { url });
    const dp = await dash.openPage(`/projects/${project.id}/webhooks`);
    const { page } = dp;
    await page.setViewportSize({ width: 420, height: 800 });
    await signIn(dp, owner.email);
    const link = page.getByRole('link', { name: url });
    await visible(link);
    await link.scrollIntoViewIfNeeded();
    // Inside the window, whole: nothing of it cut off by the page's edge.
    const box = await link.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 420).toBe(true);
    // Nothing runs past the right edge: the page does not scroll sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(420);
    // One endpoint under another, each with its facts: no table to scroll sideways.
    const card = page.getByRole('article', { name: `Endpoint ${url}` });
    await visible(card.getByText('Enabled', { exact: true }));
    await visible(card.getByText(endpoint.id));
    await visible(card.getByText('All events'));
    await dp.checkPage('webhooks-420px');
    await link.click();
    await visible(page.getByRole('heading', { name: url, exact: true }));
    await visible(page.getByRole('button', { name: 'Send test event' }));
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(420);
    await dp.checkPage('webhook-endpoint-420px');
    dp.expectClean();
    await dp.close();
  }, 60_000);
});
