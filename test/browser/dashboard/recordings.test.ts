import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { chromiumUnavailable } from '../../support/chromium.js';
import { createConversation, createKey, createProject, mintChatToken, registerUser } from '../../support/factories.js';
import { connectRealtime } from '../../support/socket-client.js';
import { eventually } from '../../support/wait.js';
import { signIn, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: environment recordings', () => {
  const dash = useDashboard();

  it('records REST and realtime traffic, shows it as a timeline with details, downloads the HAR and deletes it', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Recording demo');
    const key = (await createKey(dash.api, project.id, owner, 'development')).key;

    const dp = await dash.openPage(`/projects/${project.id}/recordings`);
    await signIn(dp, owner.email);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'Recordings', level: 1 }));
    await visible(page.getByText('No recordings of development yet.'));
    await page.getByRole('textbox', { name: 'Size limit (MB)' }).fill('5');
    await page.getByRole('button', { name: 'Start recording' }).click();
    const table = page.getByRole('table', { name: 'Recordings of Development' });
    const row = table.getByRole('row').filter({ hasText: 'rec_' });
    await visible(row.getByText('Recording', { exact: true }));
    expect(await row.innerText()).toContain('of 5.0 MB');
    // One recording at a time: the page says so instead of letting the server refuse a second start.
    await visible(page.getByText('A recording of this environment is running: stop it below to start another.'));
    expect(await page.getByRole('button', { name: 'Start recording' }).isDisabled()).toBe(true);

    // Traffic: a REST call with the key, and a realtime ping answered by a pong.
    const chatToken = await mintChatToken(dash.api, key, 'alice');
    await createConversation(dash.api, key, { members: ['alice'] });
    const realtime = connectRealtime(dash.url, chatToken);
    await realtime.next('connected');
    realtime.send({ type: 'ping' });
    await realtime.next('pong');
    realtime.close();
    await realtime.closed;
    const recordingId = (await row.getByRole('link').innerText()).trim();
    const har = `/v1/projects/${project.id}/environment/recordings/${recordingId}/har?environment=development`;
    await eventually(
      async () => (await dash.api.get(har, { token: owner.token })).body,
      (file) => file.log.entries.some((e: any) => e._webSocketClose),
      5000,
    );
    await dp.checkPage('recordings-running');

    await row.getByRole('button', { name: `Stop ${recordingId}` }).click();
    await visible(row.getByText('Stopped', { exact: true }));
    expect(await page.getByRole('button', { name: 'Start recording' }).isEnabled()).toBe(true);

    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: `Download HAR of ${recordingId}` }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${recordingId}.har`);
    const saved = JSON.parse(await readFile(await file.path(), 'utf8'));
    expect(saved.log.version).toBe('1.2');
    expect(JSON.stringify(saved)).not.toContain(key);

    await row.getByRole('link', { name: `Timeline of ${recordingId}` }).click();
    const timeline = page.getByRole('table', { name: 'Timeline' });
    await visible(timeline);
    const text = await timeline.innerText();
    for (const seen of [
      'POST /v1/chat/tokens',
      'POST /v1/chat/conversations',
      'realtime socket opened',
      'ping',
      'pong',
    ])
      expect(text).toContain(seen);
    expect(await timeline.getByRole('row').filter({ hasText: 'pong' }).innerText()).toContain('received by client');
    await dp.checkPage('recording-timeline');

    await timeline.getByRole('button', { name: 'POST /v1/chat/tokens' }).click();
    const drawer = page.getByRole('dialog', { name: 'REST: POST /v1/chat/tokens' });
    await visible(drawer);
    const headers = await drawer.getByRole('table', { name: 'Request headers' }).innerText();
    expect(headers).toMatch(/authorization\s+\[redacted\]/);
    expect(await drawer.getByLabel('Response body').innerText()).toContain('"token": "[redacted]"');
    await dp.checkPage('recording-entry');
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Recordings', exact: true }).first().click();
    await row.getByRole('button', { name: `Delete ${recordingId}` }).click();
    await visible(page.getByText('No recordings of development yet.'));

    // One started elsewhere (the CLI, a test suite) appears by the live event stream, without a reload.
    const elsewhere = await dash.api.post(`/v1/projects/${project.id}/environment/recordings?environment=development`, {
      token: owner.token,
      body: {},
    });
    expect(elsewhere.status).toBe(201);
    await visible(table.getByRole('link', { name: `Timeline of ${elsewhere.body.id}` }));
    dp.expectClean();
    await dp.close();
  }, 90_000);
});
