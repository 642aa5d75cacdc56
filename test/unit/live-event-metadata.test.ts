import { describe, expect, it } from 'vitest';
import { metadataOf } from '../../server/observability/live-events.js';

describe('metadataOf (what the live event stream shows of catalogue data)', () => {
  it('keeps ids, names, roles and times, at every depth', () => {
    const data = { member: { roomId: 'conv_1', userId: 'carol', role: 'MEMBER' }, room: { id: 'room_1', name: 'a' } };
    expect(metadataOf(data)).toEqual(data);
  });

  it('leaves out message text, reaction emoji, arrays and fields it does not know', () => {
    expect(
      metadataOf({
        message: { id: 'msg_1', senderId: 'alice', text: 'secret', attachments: [{ filename: 'x.pdf' }], extra: 'x' },
        reaction: { messageId: 'msg_1', userId: 'bob', emoji: '🙂' },
        custom: { id: 'kept only under known keys' },
      }),
    ).toEqual({ message: { id: 'msg_1', senderId: 'alice' }, reaction: { messageId: 'msg_1', userId: 'bob' } });
  });
});
