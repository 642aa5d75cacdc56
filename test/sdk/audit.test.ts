import { describe, expect, it } from 'vitest';
import { recordingFetch, signedInClient } from '../support/sdk.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

describe('audit log through the SDK', () => {
  it('reads one page at a time, and iterates over every page on demand', async () => {
    const recorder = recordingFetch();
    const client = await signedInClient(t.server.url, { fetch: recorder.fetch });
    const { id: projectId } = await client.projects.create({ name: 'Audited' });
    for (let i = 0; i < 7; i++)
      await client.keys.create(projectId, { name: `k${i}`, environment: i % 2 ? 'production' : 'development' });

    const first = await client.audit.list(projectId, { limit: 3 });
    expect(first.data.map((e) => e.action)).toEqual(['api_key.created', 'api_key.created', 'api_key.created']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.audit.list(projectId, { limit: 3, cursor: first.nextCursor ?? undefined });
    expect(second.data[0].id < first.data[2].id).toBe(true);

    recorder.urls.length = 0;
    const all = [];
    for await (const entry of client.audit.all(projectId, { limit: 3 })) all.push(entry);
    expect(recorder.urls).toHaveLength(3);
    expect(all).toHaveLength(8);
    expect(new Set(all.map((e) => e.id)).size).toBe(8);
    expect(all.at(-1)?.action).toBe('project.created');
    expect(all.slice(0, 3)).toEqual(first.data);

    recorder.urls.length = 0;
    for await (const entry of client.audit.all(projectId, { limit: 2 })) {
      expect(entry.action).toBe('api_key.created');
      break;
    }
    expect(recorder.urls).toHaveLength(1);
  });

  it('filters by action and environment', async () => {
    const client = await signedInClient(t.server.url);
    const { id: projectId } = await client.projects.create({ name: 'Filtered' });
    await client.keys.create(projectId, { name: 'a', environment: 'staging' });
    await client.keys.create(projectId, { name: 'b' });
    const staging = await client.audit.list(projectId, { environment: 'staging' });
    expect(staging.data.map((e) => [e.action, e.environment, e.details])).toEqual([
      ['api_key.created', 'staging', expect.objectContaining({ name: 'a' })],
    ]);
    const created = [];
    for await (const entry of client.audit.all(projectId, { action: 'project.created' })) created.push(entry);
    expect(created).toMatchObject([{ action: 'project.created', actor: { type: 'user' }, environment: null }]);
  });
});
