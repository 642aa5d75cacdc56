/**
 * One room's media in the media process: who is in it, the tracks they publish, and each participant's subscribe
 * connection, to which every packet of every track it may receive is forwarded as is (no decoding).
 */
import type { RTCRtpSender, RtpPacket } from 'werift';
import { type KeyframeRequester, keyframeRequester } from './keyframes.js';
import { gatheredDescription, newPeerConnection, type PeerConnection } from './peer-connection.js';
import type { MediaKind, MediaReply, MediaRights, SubscribedTrack } from './protocol.js';
import type { UdpMux } from './udp-mux.js';

/** A track a participant publishes, and the subscribers' senders it is forwarded to. */
interface PublishedTrack {
  owner: Member;
  kind: MediaKind;
  senders: Set<RTCRtpSender>;
  /** Video only: keyframe requests to the publisher, throttled. */
  keyframes?: KeyframeRequester;
}

/** A participant's connection to the room. */
interface Member {
  conn: string;
  identity: string;
  rights: MediaRights;
  publish?: PeerConnection;
  tracks: PublishedTrack[];
  subscription?: { pc: PeerConnection; tracks: Map<PublishedTrack, RTCRtpSender> };
}

const mayPublish = (rights: MediaRights, kind: MediaKind) =>
  kind === 'audio' ? rights.publishAudio : rights.publishVideo;

export class MediaRoom {
  private readonly members = new Map<string, Member>();

  constructor(
    private readonly send: (reply: MediaReply) => void,
    private readonly mux: UdpMux,
  ) {}

  get isEmpty(): boolean {
    return this.members.size === 0;
  }

  async join(conn: string, identity: string, rights: MediaRights): Promise<void> {
    const member: Member = { conn, identity, rights, tracks: [] };
    this.members.set(conn, member);
    await this.offerSubscription(member);
  }

  /** Answers the participant's publish offer; its tracks are then offered to the others who have no subscription. */
  async publish(conn: string, offer: string): Promise<void> {
    const member = this.members.get(conn);
    if (!member) throw new Error('not in the room');
    if (member.publish) throw new Error('already publishing (renegotiation comes in a later step of issue 47)');
    // werift answers an offer without media with no transport, whose gathering never completes.
    if (!/^m=(audio|video) /m.test(offer)) throw new Error('the offer has no audio or video to publish');
    const pc = newPeerConnection(this.mux);
    member.publish = pc;
    pc.ontrack = ({ track, transceiver }) => {
      const kind = track.kind as MediaKind;
      const published: PublishedTrack = { owner: member, kind, senders: new Set() };
      if (kind === 'video')
        published.keyframes = keyframeRequester(() => {
          if (track.ssrc === undefined) return false;
          transceiver.receiver.sendRtcpPLI(track.ssrc).catch(() => {});
          return true;
        });
      member.tracks.push(published);
      track.onReceiveRtp.subscribe((rtp) => this.forward(published, rtp));
    };
    let answer: string;
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      await pc.setLocalDescription(await pc.createAnswer());
      answer = await gatheredDescription(pc);
    } catch (err) {
      // The participant may offer again.
      for (const track of member.tracks) track.keyframes?.stop();
      member.tracks = [];
      member.publish = undefined;
      await pc.close();
      throw err;
    }
    this.send({ type: 'publish_answer', conn, sdp: answer });
    for (const other of this.members.values()) if (other !== member) await this.offerSubscription(other);
  }

  async subscribeAnswer(conn: string, answer: string): Promise<void> {
    const subscription = this.members.get(conn)?.subscription;
    if (!subscription) throw new Error('no subscribe offer is waiting for an answer');
    await subscription.pc.setRemoteDescription({ type: 'answer', sdp: answer });
  }

  async leave(conn: string): Promise<void> {
    const member = this.members.get(conn);
    if (!member) return;
    this.members.delete(conn);
    for (const track of member.tracks) track.keyframes?.stop();
    // Its tracks are forwarded no more; the subscribers' m-lines for them stay until renegotiation (a later step).
    for (const other of this.members.values())
      for (const track of member.tracks) other.subscription?.tracks.delete(track);
    for (const [track, sender] of member.subscription?.tracks ?? []) track.senders.delete(sender);
    await Promise.all([member.publish?.close(), member.subscription?.pc.close()]);
  }

  async close(): Promise<void> {
    await Promise.all([...this.members.keys()].map((conn) => this.leave(conn)));
  }

  /**
   * Every packet goes to every sender of the track, as one copy without the publisher's header extensions (their ids
   * are the publish connection's): werift's sender clones what it is given before writing its own SSRC and payload
   * type, so the copy is shared. Nothing of a kind the publisher may not publish is forwarded, whatever it sends.
   */
  private forward(track: PublishedTrack, rtp: RtpPacket): void {
    if (track.senders.size === 0 || !mayPublish(track.owner.rights, track.kind)) return;
    const copy = rtp.clone();
    copy.header.extensions = [];
    copy.header.extension = false;
    for (const sender of track.senders) sender.sendRtp(copy).catch(() => {});
  }

  /**
   * The server's offer of a subscribe connection with every track of the others, if the participant may subscribe,
   * has none yet and there is something to receive. (Adding tracks to an existing one, by renegotiation, is step 3.)
   */
  private async offerSubscription(member: Member): Promise<void> {
    if (!member.rights.subscribe || member.subscription) return;
    const tracks = [...this.members.values()]
      .filter((other) => other !== member)
      .flatMap((other) => other.tracks.filter((track) => mayPublish(other.rights, track.kind)));
    if (tracks.length === 0) return;
    const pc = newPeerConnection(this.mux);
    const subscription = { pc, tracks: new Map<PublishedTrack, RTCRtpSender>() };
    member.subscription = subscription;
    const transceivers = tracks.map((track) => {
      const transceiver = pc.addTransceiver(track.kind, { direction: 'sendonly' });
      subscription.tracks.set(track, transceiver.sender);
      track.senders.add(transceiver.sender);
      // The subscriber's own keyframe requests reach the publisher, throttled with everyone's.
      transceiver.sender.onPictureLossIndication.subscribe(() => track.keyframes?.request());
      return { track, transceiver };
    });
    // Chromium sends no periodic keyframes: without asking once the subscriber can receive, it would see no frame.
    pc.connectionStateChange.subscribe((state) => {
      if (state !== 'connected') return;
      for (const track of subscription.tracks.keys()) track.keyframes?.request();
    });
    await pc.setLocalDescription(await pc.createOffer());
    const sdp = await gatheredDescription(pc);
    const described: SubscribedTrack[] = transceivers.map(({ track, transceiver }) => ({
      mid: transceiver.mid ?? '',
      participant: track.owner.identity,
      kind: track.kind,
    }));
    this.send({ type: 'subscribe_offer', conn: member.conn, sdp, tracks: described });
  }
}
