// Signaling across three `switchboard serve` nodes with Redis between them: participants of one room connected to
// different nodes find each other, exchange frames, are counted once against maxParticipants, replace each other, and
// leave when their node dies.
import { describe, expect, inject, it } from 'vitest';
import { clusterMissing, everyNodeReady } from '../support/cluster.js';
import { useClusterProject } from '../support/cluster-project.js';
import { createLiveStream, mintRtcToken } from '../support/factories.js';
import { client } from '../support/http.js';
import { connectSignaling, type SocketClient, sdp } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';

const missing = clusterMissing(inject('postgresUrl'));
if (missing) console.warn(`Skipping the signaling tests across nodes: ${missing}`);

describe.skipIf(missing !== undefined)('signaling across three nodes', () => {
  const project = useClusterProject();

  const api = () => client(project.cluster.proxy.url);

  async function room(maxParticipants?: number): Promise<{ id: string; name: string }> {
    const res = await api().post('/v1/rooms', {
      token: project.key,
      body: { name: `room-${Math.random()}`, maxParticipants },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  /** A signaling socket of `identity` on one node, around the proxy (not yet joined). */
  async function connectOn(nodeIndex: number, roomId: string, identity: string, rights: Record<string, unknown> = {}) {
    const { token } = await mintRtcToken(api(), project.key, roomId, { identity, ...rights });
    return connectWith(nodeIndex, token);
  }
  function connectWith(nodeIndex: number, token: string): SocketClient {
    const socket = connectSignaling(project.cluster.nodes[nodeIndex].url, token);
    project.sockets.push(socket);
    return socket;
  }
  /** Joined on that node. */
  async function joinOn(nodeIndex: number, roomId: string, identity: string, rights: Record<string, unknown> = {}) {
    const socket = await connectOn(nodeIndex, roomId, identity, rights);
    await socket.next('joined');
    return socket;
  }
  const identities = (participants: { identity: string }[]) => participants.map((p) => p.identity);
  const listed = async (nodeIndex: number, roomId: string) =>
    (await client(project.cluster.nodes[nodeIndex].url).get(`/v1/rooms/${roomId}/participants`, { token: project.key }))
      .body.data as {
      identity: string;
    }[];
  const countOn = async (nodeIndex: number, roomId: string) =>
    (await client(project.cluster.nodes[nodeIndex].url).get(`/v1/rooms/${roomId}`, { token: project.key })).body
      .participantCount as number;

  it('relays offers, answers, ICE candidates and data between participants on different nodes', async () => {
    const { id } = await room();
    const alice = await joinOn(0, id, 'alice');
    const bob = await connectOn(1, id, 'bob');
    expect(identities((await bob.next('joined')).participants)).toEqual(['alice']);
    expect((await alice.next('participant_joined')).participant.identity).toBe('bob');
    const carol = await connectOn(2, id, 'carol', { subscribe: false });
    expect(identities((await carol.next('joined')).participants)).toEqual(['alice', 'bob']);
    await alice.next('participant_joined');
    await bob.next('participant_joined');

    // Every node lists and counts the three.
    for (const node of [0, 1, 2]) {
      expect(identities(await listed(node, id))).toEqual(['alice', 'bob', 'carol']);
      expect(await countOn(node, id)).toBe(3);
    }

    const offer = sdp(['audio', 'sendrecv'], ['video', 'sendrecv']);
    alice.send({ type: 'offer', to: 'bob', sdp: offer });
    expect(await bob.next('offer')).toEqual({ type: 'offer', from: 'alice', sdp: offer });
    const answer = sdp(['audio', 'sendrecv'], ['video', 'sendrecv']);
    bob.send({ type: 'answer', to: 'alice', sdp: answer });
    expect(await alice.next('answer')).toEqual({ type: 'answer', from: 'bob', sdp: answer });
    const candidates = Array.from({ length: 5 }, (_, i) => ({
      candidate: `candidate:${i} 1 udp 1 10.0.0.1 ${5000 + i} typ host`,
    }));
    for (const candidate of candidates) alice.send({ type: 'ice', to: 'bob', candidate });
    alice.send({ type: 'ice', to: 'bob', candidate: null });
    bob.send({ type: 'ice', to: 'alice', candidate: candidates[0] });
    await eventually(
      async () => bob.received.filter((frame) => frame.type === 'ice'),
      (frames) => frames.length === candidates.length + 1,
      5_000,
    );
    // In the order they were sent.
    expect(bob.received.filter((frame) => frame.type === 'ice').map((frame) => frame.candidate)).toEqual([
      ...candidates,
      null,
    ]);
    expect(await alice.next('ice')).toEqual({ type: 'ice', from: 'bob', candidate: candidates[0] });

    alice.send({ type: 'data', to: 'carol', payload: { hello: 'carol' } });
    expect(await carol.next('data')).toEqual({ type: 'data', from: 'alice', payload: { hello: 'carol' } });
    bob.send({ type: 'data', payload: 'to everyone' });
    expect(await alice.next('data')).toEqual({ type: 'data', from: 'bob', payload: 'to everyone' });
    expect(await carol.next('data')).toEqual({ type: 'data', from: 'bob', payload: 'to everyone' });

    // The sender's node checks against the participants of every node.
    alice.send({ type: 'offer', to: 'carol', sdp: sdp(['video', 'sendrecv']) });
    expect(await alice.next('error')).toMatchObject({ code: 'subscribe_not_allowed', refused: 'offer' });
    alice.send({ type: 'ice', to: 'nobody', candidate: null });
    expect(await alice.next('error')).toMatchObject({ code: 'participant_not_found', refused: 'ice' });
    expect(carol.received.some((frame) => frame.type === 'offer')).toBe(false);

    bob.close();
    expect(await alice.next('participant_left')).toEqual({ type: 'participant_left', identity: 'bob' });
    expect(await carol.next('participant_left')).toEqual({ type: 'participant_left', identity: 'bob' });
    alice.send({ type: 'data', to: 'bob', payload: 'gone?' });
    expect(await alice.next('error')).toMatchObject({ code: 'participant_not_found', refused: 'data' });
    expect(identities(await listed(2, id))).toEqual(['alice', 'carol']);
  });

  it('refuses a participant beyond maxParticipants on a third node, and takes one once a place is free', async () => {
    const { id } = await room(2);
    await joinOn(0, id, 'one');
    const two = await joinOn(1, id, 'two');
    const three = await connectOn(2, id, 'three');
    expect(await three.closed).toEqual({ code: 4429, reason: expect.stringContaining('is full (2 participants)') });

    two.close();
    await eventually(
      () => countOn(2, id),
      (count) => count === 1,
    );
    await joinOn(2, id, 'three');
    expect(await countOn(0, id)).toBe(2);
  });

  it('gives a room’s last place to exactly one of two joins racing on two nodes', async () => {
    for (let round = 0; round < 5; round++) {
      const { id } = await room(2);
      await joinOn(0, id, 'first');
      const tokens = await Promise.all(
        ['left', 'right'].map(async (identity) => (await mintRtcToken(api(), project.key, id, { identity })).token),
      );
      const racing = [connectWith(1, tokens[0]), connectWith(2, tokens[1])];
      const outcomes = await Promise.all(
        racing.map((socket) =>
          Promise.race([
            socket.next('joined', 10_000).then(() => 'joined'),
            socket.closed.then(({ code }) => `closed ${code}`),
          ]),
        ),
      );
      expect(outcomes.sort()).toEqual(['closed 4429', 'joined']);
      expect(await countOn(0, id)).toBe(2);
      for (const socket of racing) socket.close();
    }
  });

  it('replaces the connection of an identity that joins again on another node', async () => {
    const { id } = await room();
    const first = await joinOn(0, id, 'dana');
    const watcher = await joinOn(2, id, 'erin');
    const second = await connectOn(1, id, 'dana');
    expect(identities((await second.next('joined')).participants)).toEqual(['erin']);
    expect(await first.closed).toEqual({ code: 4409, reason: 'replaced by a new connection with the same identity' });
    expect((await watcher.next('participant_joined')).participant.identity).toBe('dana');
    expect(identities(await listed(0, id))).toEqual(['erin', 'dana']);

    watcher.send({ type: 'data', to: 'dana', payload: 'which one?' });
    expect(await second.next('data')).toMatchObject({ payload: 'which one?' });
    // The replaced connection's end is no leaving: nobody is told dana left.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(watcher.received.some((frame) => frame.type === 'participant_left')).toBe(false);
  });

  it('closes a room’s participants on every node when it is deleted, or its live stream ends or drops a host', async () => {
    const { id } = await room();
    const inRoom = [await joinOn(0, id, 'a'), await joinOn(1, id, 'b'), await joinOn(2, id, 'c')];
    const deleted = await client(project.cluster.nodes[0].url).delete(`/v1/rooms/${id}`, { token: project.key });
    expect(deleted.status).toBe(204);
    for (const socket of inRoom) expect((await socket.closed).code).toBe(4410);

    const stream = await createLiveStream(api(), project.key);
    const credential = async (path: string, body: Record<string, unknown>) => {
      const res = await api().post(`/v1/live-streams/${stream.id}/${path}`, { token: project.key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.rtc.token as string;
    };
    const host = connectWith(1, await credential('hosts', { identity: 'host', role: 'HOST' }));
    const viewer = connectWith(2, await credential('viewer-tokens', { identity: 'viewer' }));
    await host.next('joined');
    await viewer.next('joined');
    const participants = await client(project.cluster.nodes[0].url).get(
      `/v1/projects/${project.projectId}/live-streams/${stream.id}/participants`,
      { token: project.owner.token },
    );
    expect(participants.status, JSON.stringify(participants.body)).toBe(200);
    expect(
      participants.body.data.map((p: { identity: string; connected: boolean }) => [p.identity, p.connected]),
    ).toEqual([
      ['host', true],
      ['viewer', true],
    ]);

    expect(
      (
        await client(project.cluster.nodes[0].url).delete(`/v1/live-streams/${stream.id}/hosts/host`, {
          token: project.key,
        })
      ).status,
    ).toBe(204);
    expect(await host.closed).toEqual({ code: 4403, reason: 'removed as a host' });
    expect(
      (await client(project.cluster.nodes[0].url).post(`/v1/live-streams/${stream.id}/end`, { token: project.key }))
        .status,
    ).toBe(200);
    expect(await viewer.closed).toEqual({ code: 4410, reason: 'the live stream ended' });
  });

  it('closes and refuses signaling sockets with 1013 while Redis is lost, and counts places again once it is back', async () => {
    const { id } = await room(1);
    const alice = await joinOn(0, id, 'alice');
    const { token } = await mintRtcToken(api(), project.key, id, { identity: 'bob' });
    await project.cluster.redis.pause();
    try {
      expect(await alice.closed).toEqual({ code: 1013, reason: expect.stringContaining('signaling degraded') });
      expect((await connectWith(1, token).closed).code).toBe(1013);
      // The REST routes go on, with what the node knows.
      const read = await client(project.cluster.nodes[2].url).get(`/v1/rooms/${id}/participants`, {
        token: project.key,
      });
      expect(read.status, JSON.stringify(read.body)).toBe(200);
    } finally {
      await project.cluster.redis.resume();
    }
    await everyNodeReady(project.cluster);
    await joinOn(1, id, 'bob');
    const carol = await connectOn(2, id, 'carol');
    expect((await carol.closed).code).toBe(4429);
  }, 60_000);

  // Last: it kills a node.
  it('removes the participants of a killed node, telling the others, and frees their places', async () => {
    const { id } = await room(2);
    const alice = await joinOn(0, id, 'alice');
    await joinOn(2, id, 'lost');
    await alice.next('participant_joined');
    const killedAt = Date.now();
    await project.cluster.nodes[2].kill('SIGKILL');

    expect(await alice.next('participant_left', 30_000)).toEqual({ type: 'participant_left', identity: 'lost' });
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(identities(await listed(1, id))).toEqual(['alice']);
    await joinOn(1, id, 'newcomer');
  }, 60_000);
});
