import { describe, expect, it } from 'vitest';
import type { EnvironmentClock } from '../../sdk/index.js';
import { watchEvents } from '../support/live-events.js';
import { serverClient } from '../support/sdk-keys.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();
const HOUR = 3600;

describe('ConsoleClient.environments clock methods, as a test suite uses them', () => {
  it('advances staging past a chat token’s expiry, reads the clock, resets it; watchers hear of each change', async () => {
    const { console, projectId, server } = await serverClient(t.server.url, 'staging');
    const { token } = await server.chatTokens.create({ userId: 'alice', ttlSeconds: HOUR });
    const stream = await console.observability.events(projectId, { environment: 'staging' });
    const watching = watchEvents(stream);

    const advanced: EnvironmentClock = await console.environments.advanceClock(projectId, {
      environment: 'staging',
      seconds: 2 * HOUR,
    });
    expect(advanced).toMatchObject({ environment: 'staging', offsetMs: 2 * HOUR * 1000 });
    expect(await console.environments.clock(projectId, { environment: 'staging' })).toMatchObject({
      offsetMs: 2 * HOUR * 1000,
      advancedAt: advanced.advancedAt,
    });
    const changed = await watching.waitFor('environment.clock_changed');
    expect(changed).toMatchObject({
      environment: 'staging',
      data: { offsetMs: 2 * HOUR * 1000, advancedByMs: 2 * HOUR * 1000 },
    });

    // The token's hour has passed in staging.
    const expired = await fetch(`${t.server.url}/v1/chat/conversations`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(expired.status).toBe(401);

    const reset = await console.environments.resetClock(projectId, { environment: 'staging' });
    expect(reset).toMatchObject({ environment: 'staging', offsetMs: 0, advancedAt: null });
    await watching.waitFor('environment.clock_changed', (e) => e.data.offsetMs === 0);
    stream.close();

    // Production's clock never moves; its reading is real time.
    await expect(
      console.environments.advanceClock(projectId, { environment: 'production', seconds: 60 }),
    ).rejects.toMatchObject({ status: 403, code: 'SERVICE_PRODUCTION_ENVIRONMENT' });
    await expect(console.environments.resetClock(projectId, { environment: 'production' })).rejects.toMatchObject({
      status: 403,
      code: 'SERVICE_PRODUCTION_ENVIRONMENT',
    });
    expect(await console.environments.clock(projectId, { environment: 'production' })).toMatchObject({ offsetMs: 0 });
    await expect(
      console.environments.advanceClock(projectId, { environment: 'staging', seconds: 0 }),
    ).rejects.toMatchObject({ status: 400, code: 'SERVICE_VALIDATION_FAILED' });
  });
});
