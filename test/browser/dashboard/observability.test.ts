import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumUnavailable } from '../../support/chromium.js';
import {
  addMember,
  createConversation,
  createKey,
  createProject,
  mintChatToken,
  registerUser,
  registerWebhook,
  sendMessage,
  type TestUser,
} from '../../support/factories.js';
import type { Client } from '../../support/http.js';
import { connectRealtime, type SocketClient } from '../../support/socket-client.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { type DashboardPage, signIn, tabTo, useDashboard, visible } from './harness.js';

/** A project with a development key, a chat user and a conversation: the setting of real traffic. */
async function projectWithTraffic(api: Client) {
  const owner = await registerUser(api);
  const project = await createProject(api, owner, 'Observed');
  const { key } = await createKey(api, project.id, owner, 'development');
  let requests = 0;
  const chatToken = await mintChatToken(api, key, 'alice');
  const conversation = await createConversation(api, key, { members: ['alice'] });
  requests += 2;
  const send = async (text: string) => {
    requests++;
    return sendMessage(api, key, conversation.id, { text, senderId: 'alice' });
  };
  /** A 404 of a runtime route: recorded as an error with the answer's request id. */
  const fail = async () => {
    requests++;
    const res = await api.get('/v1/rooms/room_00000000000000000000000000', { token: key });
    expect(res.status).toBe(404);
    return res.body as { code: string; requestId: string };
  };
  return { owner, project, key, chatToken, conversation, send, fail, requests: () => requests };
}

/** The total a metric chart shows, as the user reads it. */
async function totalOf(page: Page, title: string): Promise<string> {
  return (await chart(page, title).getByTestId('metric-total').innerText()).trim();
}
const chart = (page: Page, title: string): Locator => page.getByRole('region', { name: title, exact: true });

/** The text an element shows, as read on screen: its text, or an error when its box cuts it off (an ellipsis). */
async function wholeText(locator: Locator): Promise<string> {
  const { text, cut } = await locator.evaluate((el) => ({
    text: (el as unknown as { innerText: string }).innerText,
    cut: el.scrollWidth > el.clientWidth,
  }));
  return cut ? `cut off: ${text}` : text;
}

/** Waits until `read` answers `expected` (what the page shows once a live event refreshed it). */
async function shows(read: () => Promise<string>, expected: string, timeout = 5_000): Promise<void> {
  const until = Date.now() + timeout;
  let last = '';
  while (Date.now() < until) {
    last = await read();
    if (last === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(last).toBe(expected);
}

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: observability and live tail', () => {
  const dash = useDashboard();
  const sockets: SocketClient[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  async function signedIn(user: TestUser, path: string): Promise<DashboardPage> {
    const dp = await dash.openPage(path);
    await signIn(dp, user.email);
    return dp;
  }

  it('charts real traffic, moves with it, and lists the errors and connections it made, each with its page', async () => {
    const traffic = await projectWithTraffic(dash.api);
    for (const text of ['one', 'two', 'three']) await traffic.send(text);
    const failure = await traffic.fail();
    const socket = connectRealtime(dash.url, traffic.chatToken);
    sockets.push(socket);
    const { connectionId } = await socket.next('connected');

    const dp = await signedIn(traffic.owner, `/projects/${traffic.project.id}/connect`);
    const { page } = dp;
    // The keyboard reaches the page from the side navigation.
    const navLink = page
      .getByRole('navigation', { name: 'Project pages' })
      .getByRole('link', { name: 'Observability' });
    await visible(navLink);
    await tabTo(page, navLink);
    await page.keyboard.press('Enter');
    await visible(chart(page, 'Requests'));

    // The totals are the traffic the test made; each chart is drawn on a canvas, with its facts in words.
    await shows(() => totalOf(page, 'Requests'), `Total: ${traffic.requests()}`);
    expect(await totalOf(page, 'Errors')).toBe('Total: 1');
    expect(await totalOf(page, 'Messages')).toBe('Total: 3');
    expect(await totalOf(page, 'Connections opened')).toBe('Total: 1');
    for (const title of ['Requests', 'Errors', 'Messages', 'Connections opened']) {
      const canvas = chart(page, title).locator('canvas');
      expect(await canvas.count()).toBe(1);
      expect((await canvas.boundingBox())?.width).toBeGreaterThan(200);
    }
    expect(await chart(page, 'Messages').getByRole('img').getAttribute('aria-label')).toMatch(
      /^Messages per minute over the last hour: 3 in total/,
    );
    // Diagnostics of the environment.
    await visible(page.getByText('1 realtime · 0 signaling'));
    await visible(page.getByText(/^Webhook queue/));
    await dp.checkPage('observability-metrics');

    // A message sent now moves the current minute's counts without a reload (a live event refreshes them).
    await traffic.send('four');
    await shows(() => totalOf(page, 'Messages'), 'Total: 4');
    await shows(() => totalOf(page, 'Requests'), `Total: ${traffic.requests()}`);

    // The window is in the address.
    await page.getByText('24h', { exact: true }).click();
    await page.waitForURL(/window=24h/);
    await visible(page.getByRole('img', { name: /^Requests per minute over the last 24 hours/ }));
    expect(await totalOf(page, 'Messages')).toBe('Total: 4');

    // Errors: the provoked 404 with its request id, which opens its page.
    // The tabs are one stop of the Tab key (the active tab); the arrow keys move between them.
    await tabTo(page, page.getByRole('tab', { name: 'Metrics' }));
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/\/observability\/errors/);
    const errorRow = page.getByRole('row').filter({ hasText: failure.requestId });
    await visible(errorRow);
    expect(await errorRow.innerText()).toContain('404');
    expect(await errorRow.innerText()).toContain('GET /v1/rooms/{id}');
    await dp.checkPage('observability-errors');
    await errorRow.getByRole('link', { name: `Error ${failure.requestId}: details` }).click();
    await visible(page.getByRole('heading', { name: failure.code }));
    expect(await page.getByLabel('Request id', { exact: true }).innerText()).toBe(failure.requestId);
    await visible(page.getByRole('button', { name: 'Copy request id' }));
    await dp.checkPage('observability-error');

    // A second failure appears in the list as it happens.
    await page.getByRole('link', { name: '← All errors' }).click();
    const second = await traffic.fail();
    await visible(page.getByRole('row').filter({ hasText: second.requestId }));

    // Connections: the realtime socket, open, then closed on its page as it closes.
    await page.getByRole('tab', { name: 'Connections' }).click();
    const connectionRow = page.getByRole('row').filter({ hasText: connectionId });
    await visible(connectionRow);
    expect(await connectionRow.innerText()).toMatch(/realtime\s+alice/);
    await visible(connectionRow.getByText('Open'));
    await dp.checkPage('observability-connections');
    await connectionRow.getByRole('link', { name: connectionId }).click();
    await visible(page.getByRole('heading', { name: 'Realtime (chat) connection of alice' }));
    await visible(page.getByText('Still open'));
    socket.close();
    await page.getByText('Still open').waitFor({ state: 'detached' });
    await visible(page.getByText('Closed', { exact: true }));
    await dp.checkPage('observability-connection');
    // Back in the list, the row's state reads whole, on a laptop's width too: the badge is not squeezed to "CLO…".
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goBack();
    const closedBadge = connectionRow.locator('.mantine-Badge-root').filter({ hasText: 'Closed' });
    await visible(closedBadge);
    expect(await wholeText(closedBadge.locator('.mantine-Badge-label'))).toBe('CLOSED');
    await dp.checkPage('observability-connections-closed');
    dp.expectClean();
    await dp.close();
  }, 60_000);

  it('tails the live event stream: a message as metadata within a second, pause, filter, clear, links', async () => {
    const traffic = await projectWithTraffic(dash.api);
    const dp = await signedIn(traffic.owner, `/projects/${traffic.project.id}/live`);
    const { page } = dp;
    await visible(page.getByText(/^Waiting for events — send a message or connect a client/));
    await visible(page.getByRole('status', { name: 'Live updates: Live' }));
    await dp.checkPage('live-tail-empty');

    const rows = page.getByRole('table', { name: 'Live events' }).locator('tbody tr');
    const started = Date.now();
    const message = await traffic.send('a secret the dashboard never sees');
    const messageRow = rows.filter({ hasText: 'message.created' }).filter({ hasText: message.id });
    await visible(messageRow);
    const elapsed = Date.now() - started;
    console.log(`live tail: message.created shown ${elapsed} ms after its POST was sent`);
    expect(elapsed).toBeLessThan(1_000);
    expect(await messageRow.innerText()).toContain(traffic.conversation.id);
    await messageRow.getByRole('button', { name: /^Show metadata of message.created/ }).click();
    const metadata = await page.locator('pre').innerText();
    expect(metadata).toContain(message.id);
    expect(metadata).toContain('"senderId": "alice"');
    expect(await page.getByText('a secret the dashboard never sees').count()).toBe(0);
    await dp.checkPage('live-tail');
    await messageRow.getByRole('button', { name: /^Hide metadata of message.created/ }).click();
    expect(await page.locator('pre').count()).toBe(0);

    // Paused: new events are counted, not shown, until resumed.
    const pause = page.getByRole('button', { name: 'Pause' });
    await tabTo(page, pause);
    await page.keyboard.press('Enter');
    const before = await rows.count();
    await traffic.send('held one');
    await traffic.send('held two');
    await visible(page.getByRole('button', { name: 'Resume (2 new)' }));
    expect(await rows.count()).toBe(before);
    await dp.checkPage('live-tail-paused');
    await page.getByRole('button', { name: 'Resume (2 new)' }).click();
    await visible(page.getByRole('button', { name: 'Pause' }));
    expect(await rows.filter({ hasText: 'message.created' }).count()).toBe(3);

    // Filters: by type, then by an id (both kept in the address).
    const failure = await traffic.fail();
    await visible(rows.filter({ hasText: failure.requestId }));
    const types = page.getByRole('combobox', { name: 'Event types' });
    await types.click();
    await page.getByRole('option', { name: 'request.failed' }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL(/types=/);
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(failure.requestId);
    await types.click();
    await page.getByRole('option', { name: 'request.failed' }).click();
    await page.keyboard.press('Escape');
    await shows(async () => String(page.url().includes('types=')), 'false');
    await page.getByRole('textbox', { name: 'Filter by id or name' }).fill(message.id);
    await shows(async () => String(await rows.count()), '1');
    expect(await rows.first().innerText()).toContain(message.id);
    await page.getByRole('textbox', { name: 'Filter by id or name' }).fill('');
    await dp.checkPage('live-tail-filtered');

    // Clear empties the tail; the next event shows again.
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await visible(page.getByText('Cleared. New events appear here as they happen.'));
    const second = await traffic.fail();
    const errorEventRow = rows.filter({ hasText: second.requestId });
    await visible(errorEventRow);
    expect(await rows.count()).toBe(1);

    // An event links to the page of what it names.
    await errorEventRow.getByRole('link', { name: 'Error', exact: true }).click();
    await page.waitForURL(/\/observability\/errors\/err_/);
    expect(await page.getByLabel('Request id', { exact: true }).innerText()).toBe(second.requestId);
    dp.expectClean();
    await dp.close();
  }, 60_000);

  it('names the endpoint of each webhook delivery in the live tail', async () => {
    const traffic = await projectWithTraffic(dash.api);
    const receiver = await startReceiver();
    try {
      const dp = await signedIn(traffic.owner, `/projects/${traffic.project.id}/live`);
      const { page } = dp;
      await visible(page.getByRole('status', { name: 'Live updates: Live' }));
      // Added after the page loaded: the tail learns its URL when its first delivery shows.
      await registerWebhook(dash.api, traffic.project.id, traffic.owner, {
        url: `${receiver.url}/tail`,
        events: ['message.created'],
      });
      await traffic.send('delivered');
      const rows = page.getByRole('table', { name: 'Live events' }).locator('tbody tr');
      const delivery = rows.filter({ hasText: 'delivery.attempted' });
      await visible(delivery.getByText(`message.created to ${receiver.url}/tail · attempt 1 answered 200`));
      await dp.checkPage('live-tail-delivery');
      dp.expectClean();
      await dp.close();
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('shows a BILLING member the usage and nothing else', async () => {
    const traffic = await projectWithTraffic(dash.api);
    await traffic.send('billed');
    await traffic.send('billed too');
    const billing = await registerUser(dash.api);
    await addMember(dash.api, traffic.project.id, traffic.owner, billing, 'BILLING');

    const dp = await signedIn(billing, `/projects/${traffic.project.id}/usage`);
    const { page } = dp;
    const figure = (label: string) => page.locator('.mantine-Paper-root').filter({ hasText: label });
    await visible(figure('Messages'));
    expect(await figure('Messages').innerText()).toMatch(/^messages\s+2$/i);
    // Usage counts webhook attempts (each retry is one more), and says so.
    await visible(figure('Webhook attempts'));
    const nav = page.getByRole('navigation', { name: 'Project pages' }).getByRole('link');
    expect(await nav.allInnerTexts()).toEqual(['Connect', 'Usage', 'Settings']);
    await dp.checkPage('usage-billing');

    // The month picker: the previous month, kept in the address, used nothing.
    await page.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option').nth(1).click();
    await page.waitForURL(/month=\d{4}-\d{2}/);
    await shows(async () => (await figure('Messages').innerText()).replace(/\s+/g, ' '), 'MESSAGES 0');

    // Traffic, errors and the tail are not shown, not even by their address (and nothing is asked of the server).
    for (const path of ['observability', 'observability/errors', 'live']) {
      await page.goto(`${dash.url}/projects/${traffic.project.id}/${path}`);
      await visible(page.getByText(/^Your role \(BILLING\) cannot (see traffic|watch the live event stream)/));
      expect(await page.locator('canvas').count()).toBe(0);
      expect(await page.getByRole('table').count()).toBe(0);
    }
    await dp.checkPage('observability-billing');
    dp.expectClean();
    await dp.close();
  }, 45_000);
});
