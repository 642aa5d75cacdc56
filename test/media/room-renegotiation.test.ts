/**
 * The media process's renegotiation (server/media/room.ts), in this process with werift clients: one subscribe offer
 * out at a time, and what changed while it was out sent once it is answered.
 */
import { expect, it } from 'vitest';
import type { MediaReply } from '../../server/media/protocol.js';
import { EVERY_RIGHT, useMediaRooms, VIEWER } from './media-room-harness.js';
import { gathered } from './werift-client.js';

const media = useMediaRooms();
it('sends one subscribe offer at a time, and what changed meanwhile in the next once answered', async () => {
  const { room, replies } = media.room();
  const offersTo = (conn: string) =>
    replies.filter(
      (r): r is Extract<MediaReply, { type: 'subscribe_offer' }> => r.type === 'subscribe_offer' && r.conn === conn,
    );
  const publish = async (conn: string) => {
    const pc = media.client();
    pc.addTransceiver('video', { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    await room.publish(conn, await gathered(pc));
  };

  await room.join('viewer', 'viewer', VIEWER);
  await room.join('a', 'camera-a', EVERY_RIGHT);
  await room.join('b', 'camera-b', EVERY_RIGHT);
  await publish('a');
  expect(offersTo('viewer').map((o) => o.tracks.map((t) => t.participant))).toEqual([['camera-a']]);
  // B publishes while the viewer has not answered: no second offer yet.
  await publish('b');
  expect(offersTo('viewer')).toHaveLength(1);

  const viewer = media.client();
  const answer = async (sdp: string) => {
    await viewer.setRemoteDescription({ type: 'offer', sdp });
    await viewer.setLocalDescription(await viewer.createAnswer());
    await room.subscribeAnswer('viewer', await gathered(viewer));
  };
  await answer(offersTo('viewer')[0].sdp);
  // The answer sends the batched change: both cameras.
  expect(offersTo('viewer').map((o) => o.tracks.map((t) => t.participant))).toEqual([
    ['camera-a'],
    ['camera-a', 'camera-b'],
  ]);
  // A and B leave before the viewer answers: one more offer, with neither, once it has.
  await room.leave('a');
  await room.leave('b');
  expect(offersTo('viewer')).toHaveLength(2);
  await answer(offersTo('viewer')[1].sdp);
  const last = offersTo('viewer')[2];
  expect(last.tracks).toEqual([]);
  // Their m-lines rejected (port 0), the anchor data channel's kept.
  expect(last.sdp.match(/^m=video 0 /gm)).toHaveLength(2);
  expect(last.sdp).toMatch(/^m=application [1-9]/m);
  expect(last.sdp).toMatch(/^a=group:BUNDLE \S/m);
  await answer(last.sdp);
  expect(offersTo('viewer')).toHaveLength(3);
  expect(replies.filter((r) => r.type === 'failed')).toEqual([]);
  await room.close();
}, 30_000);
