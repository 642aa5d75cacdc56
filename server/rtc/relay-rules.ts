import type { Member, Participant } from './participant.js';
import { canSendAudio, canSendVideo } from './permissions.js';
import { CLOSE, type RelayedClientMessage, type ServerMessage, type SignalingErrorCode } from './protocol.js';
import { sentMediaKinds } from './sdp.js';

/** Why an SDP from `sender` to `target` may not be relayed, if it may not. */
function refuseSdp(sender: Participant, target: Member, message: RelayedClientMessage & { sdp: string }) {
  const sends = sentMediaKinds(message.sdp);
  if (
    (sends.has('audio') && !canSendAudio(sender.permissions)) ||
    (sends.has('video') && !canSendVideo(sender.permissions))
  ) {
    const kinds = [sends.has('audio') && 'audio', sends.has('video') && 'video'].filter(Boolean).join(' and ');
    return { code: 'publish_not_allowed' as const, message: `Your token does not allow publishing ${kinds}.` };
  }
  // Offering a data channel is publishing data; accepting a peer's channel in an answer is not.
  if (message.type === 'offer' && sends.has('application') && !sender.permissions.publishData) {
    return { code: 'publish_data_not_allowed' as const, message: 'Your token does not allow publishing data.' };
  }
  if ((sends.has('audio') || sends.has('video')) && !target.permissions.subscribe) {
    return { code: 'subscribe_not_allowed' as const, message: `${target.identity} may not subscribe to media.` };
  }
  return undefined;
}

/** Where a relayed message goes: to one participant of the room, to all but the sender, or back to the sender. */
export interface RelayOutput {
  toOne(identity: string, message: ServerMessage): void;
  toOthers(message: ServerMessage): void;
  toSender(message: ServerMessage): void;
}

/**
 * Relays one client message within the sender's room, enforcing the sender's rights. `target` is the participant its
 * `to` names, found in the room (on any node), or undefined when there is none.
 */
export function relayMessage(
  sender: Participant,
  message: RelayedClientMessage,
  target: Member | undefined,
  out: RelayOutput,
): void {
  const error = (code: SignalingErrorCode, text: string, refused: string) =>
    out.toSender({ type: 'error', code, message: text, refused });
  switch (message.type) {
    case 'ping':
      out.toSender({ type: 'pong' });
      return;
    case 'leave':
      sender.socket.close(CLOSE.normal, 'left');
      return;
    case 'data': {
      if (!sender.permissions.publishData) {
        error('publish_data_not_allowed', 'Your token does not allow publishing data.', 'data');
        return;
      }
      const frame: ServerMessage = { type: 'data', from: sender.identity, payload: message.payload };
      if (message.to === undefined) out.toOthers(frame);
      else if (!target) error('participant_not_found', `No participant ${message.to} in this room.`, 'data');
      else out.toOne(target.identity, frame);
      return;
    }
    default: {
      if (!target) {
        error('participant_not_found', `No participant ${message.to} in this room.`, message.type);
        return;
      }
      if (message.type === 'ice') {
        out.toOne(target.identity, { type: 'ice', from: sender.identity, candidate: message.candidate });
        return;
      }
      const refusal = refuseSdp(sender, target, message);
      if (refusal) {
        error(refusal.code, refusal.message, message.type);
        return;
      }
      out.toOne(target.identity, { type: message.type, from: sender.identity, sdp: message.sdp });
    }
  }
}
