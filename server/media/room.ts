/**
 * One room's media in the media process: who is in it, the tracks they publish, and each participant's subscribe
 * connection, to which every packet of every track it may receive is forwarded as is (no decoding).
 */
import type { RTCRtpSender, RTCRtpTransceiver, RtpPacket } from 'werift';
import {
  type BitrateCapper,
  bitrateCap,
  bitrateCapper,
  type ReceiverEstimate,
  readReceiverEstimates,
  sendBitrateCap,
} from './bitrate.js';
import { type KeyframeRequester, keyframeRequester } from './keyframes.js';
import { gatheredDescription, newPeerConnection, type PeerConnection } from './peer-connection.js';
import type { MediaKind, MediaReply, MediaRights, SubscribedTrack } from './protocol.js';
import type { UdpMux } from './udp-mux.js';

/** A track a participant publishes, and the subscribers' senders it is forwarded to. */
export interface PublishedTrack {
  owner: Member;
  kind: MediaKind;
  senders: Set<RTCRtpSender>;
  /** Video only: keyframe requests to the publisher, throttled. */
  keyframes?: KeyframeRequester;
  /** Video only: the REMB that caps the publisher to its slowest subscriber while it is congested (bitrate.ts). */
  bitrateCap?: BitrateCapper;
}

/**
 * A participant's subscribe connection: the server offers it, with one m-line per track the participant receives.
 * One offer at a time: while one waits for its answer, changes only mark it `stale`, and the answer sends the next.
 */
export interface Subscription {
  pc: PeerConnection;
  /** The tracks it carries now, with the transceiver each has on this connection. */
  tracks: Map<PublishedTrack, RTCRtpTransceiver>;
  awaitingAnswer: boolean;
  stale: boolean;
  /** Video tracks added by the offer out: a connected subscriber needs a keyframe of each once it has answered. */
  added: PublishedTrack[];
  /** The subscriber's last receiver estimate (REMB) for the whole connection. */
  estimate?: ReceiverEstimate;
}

/** A participant's connection to the room. */
export interface Member {
  conn: string;
  identity: string;
  rights: MediaRights;
  publish?: PeerConnection;
  tracks: PublishedTrack[];
  subscription?: Subscription;
}

const MEDIA_KINDS: MediaKind[] = ['audio', 'video'];
const stopTrack = (track: PublishedTrack) => {
  track.keyframes?.stop();
  track.bitrateCap?.stop();
};
const mayPublish = (rights: MediaRights, kind: MediaKind) =>
  kind === 'audio' ? rights.publishAudio : rights.publishVideo;

export class MediaRoom {
  private readonly members = new Map<string, Member>();

  constructor(
    private readonly send: (reply: MediaReply) => void,
    private readonly mux: UdpMux,
  ) {}

  /** Its participants, for what reads their connections' counters (media-stats.ts). */
  get participants(): ReadonlyMap<string, Member> {
    return this.members;
  }

  get isEmpty(): boolean {
    return this.members.size === 0;
  }

  async join(conn: string, identity: string, rights: MediaRights): Promise<void> {
    const member: Member = { conn, identity, rights, tracks: [] };
    this.members.set(conn, member);
    await this.renegotiate(member);
  }

  /**
   * Answers the participant's publish offer: its first, or a later one on the same connection (tracks added). New
   * tracks are then offered to every other participant, by a new subscribe offer or a renegotiation of theirs.
   */
  async publish(conn: string, offer: string): Promise<void> {
    const member = this.members.get(conn);
    if (!member) throw new Error('not in the room');
    // werift answers an offer without media with no transport, whose gathering never completes.
    if (!/^m=(audio|video) /m.test(offer)) throw new Error('the offer has no audio or video to publish');
    const allowed = new Set(MEDIA_KINDS.filter((kind) => mayPublish(member.rights, kind)));
    if (allowed.size === 0) throw new Error('this participant may not publish');
    const first = !member.publish;
    // The kinds it may not publish have no codec there: their m-lines are rejected (port 0) in the answer.
    const pc = member.publish ?? newPeerConnection(this.mux, allowed);
    member.publish = pc;
    if (first) this.logFailure(pc, `the publish connection of ${conn}`);
    if (first)
      pc.ontrack = ({ track, transceiver }) => {
        const kind = track.kind as MediaKind;
        const published: PublishedTrack = { owner: member, kind, senders: new Set() };
        if (kind === 'video') {
          published.keyframes = keyframeRequester(() => {
            // Not before the publish connection's DTLS is up (its SRTCP keys): werift's send would throw, and the
            // request be lost, when a subscriber is answered in the moment the publisher's connection comes up.
            if (track.ssrc === undefined || transceiver.receiver.dtlsTransport?.state !== 'connected') return false;
            transceiver.receiver.sendRtcpPLI(track.ssrc).catch(() => {});
            return true;
          });
          published.bitrateCap = bitrateCapper(
            (sendingBps) => bitrateCap(this.subscribersOf(published), sendingBps),
            (bitsPerSecond) => {
              if (track.ssrc !== undefined)
                sendBitrateCap(transceiver.receiver, track.ssrc, bitsPerSecond).catch(() => {});
            },
          );
        }
        member.tracks.push(published);
        track.onReceiveRtp.subscribe((rtp) => {
          published.bitrateCap?.received(rtp.payload.length);
          this.forward(published, rtp);
        });
      };
    let answer: string;
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      await pc.setLocalDescription(await pc.createAnswer());
      answer = await gatheredDescription(pc);
    } catch (err) {
      // A first offer refused leaves nothing behind: the participant may offer again.
      if (first) {
        for (const track of member.tracks) stopTrack(track);
        member.tracks = [];
        member.publish = undefined;
        await pc.close();
      }
      throw err;
    }
    this.send({ type: 'publish_answer', conn, sdp: answer });
    await this.renegotiateOthers(member);
  }

  async subscribeAnswer(conn: string, answer: string): Promise<void> {
    const member = this.members.get(conn);
    const subscription = member?.subscription;
    if (!member || !subscription?.awaitingAnswer) throw new Error('no subscribe offer is waiting for an answer');
    await subscription.pc.setRemoteDescription({ type: 'answer', sdp: answer });
    subscription.awaitingAnswer = false;
    if (subscription.pc.connectionState === 'connected')
      for (const track of subscription.added) track.keyframes?.request();
    subscription.added = [];
    // What changed while the offer was out goes in the next one.
    if (subscription.stale) await this.renegotiate(member);
  }

  /** The participant is gone: its connections close, and every subscriber stops receiving its tracks. */
  async leave(conn: string): Promise<void> {
    const member = this.members.get(conn);
    if (!member) return;
    this.members.delete(conn);
    for (const track of member.tracks) {
      stopTrack(track);
      track.senders.clear();
    }
    for (const [track, transceiver] of member.subscription?.tracks ?? []) track.senders.delete(transceiver.sender);
    await Promise.all([member.publish?.close(), member.subscription?.pc.close()]);
    await this.renegotiateOthers(member);
  }

  async close(): Promise<void> {
    await Promise.all([...this.members.keys()].map((conn) => this.leave(conn)));
  }

  /**
   * Every packet goes to every sender of the track, as one copy without the publisher's header extensions (their ids
   * are the publish connection's): werift's sender clones what it is given before writing its own SSRC and payload
   * type, so the copy is shared. Nothing of a kind the publisher may not publish is forwarded, whatever it sends:
   * a rejected m-line has no track, and werift's receiver drops a packet whose payload type its m-line did not
   * negotiate (video's sent with the SSRC of an allowed audio track: test/media/room-rights.test.ts).
   */
  private forward(track: PublishedTrack, rtp: RtpPacket): void {
    if (track.senders.size === 0 || !mayPublish(track.owner.rights, track.kind)) return;
    const copy = rtp.clone();
    copy.header.extensions = [];
    copy.header.extension = false;
    for (const sender of track.senders) sender.sendRtp(copy).catch(() => {});
  }

  /**
   * Brings the participant's subscribe connection to the tracks it should receive now (every track of the others it
   * may receive): the first offer once there is something to receive, then a new offer whenever tracks came or went.
   * A track that went has its transceiver stopped (its m-line rejected, port 0): the subscriber's track ends.
   * Offers are not stacked: while one is out, the change is noted and made when its answer comes.
   */
  private async renegotiate(member: Member): Promise<void> {
    if (!member.rights.subscribe) return;
    const wanted = [...this.members.values()]
      .filter((other) => other !== member)
      .flatMap((other) => other.tracks.filter((track) => mayPublish(other.rights, track.kind)));
    let subscription = member.subscription;
    if (!subscription) {
      if (wanted.length === 0) return;
      subscription = this.newSubscription();
      this.logFailure(subscription.pc, `the subscribe connection of ${member.conn}`);
      member.subscription = subscription;
    }
    if (subscription.awaitingAnswer) {
      subscription.stale = true;
      return;
    }
    subscription.stale = false;
    const { pc, tracks } = subscription;
    let changed = pc.localDescription === undefined;
    for (const [track, transceiver] of tracks) {
      if (wanted.includes(track)) continue;
      track.senders.delete(transceiver.sender);
      tracks.delete(track);
      transceiver.stop();
      changed = true;
    }
    for (const track of wanted) {
      if (tracks.has(track)) continue;
      const transceiver = pc.addTransceiver(track.kind, { direction: 'sendonly' });
      // One stream (msid) per publisher: a browser hands a participant's audio and video out in one MediaStream.
      transceiver.sender.streamId = track.owner.conn;
      tracks.set(track, transceiver);
      track.senders.add(transceiver.sender);
      subscription.added.push(track);
      // The subscriber's own keyframe requests reach the publisher, throttled with everyone's.
      transceiver.sender.onPictureLossIndication.subscribe(() => track.keyframes?.request());
      // Its estimate covers the connection, whichever of its streams the REMB names first.
      const current = subscription;
      readReceiverEstimates(transceiver.sender, (estimate) => {
        current.estimate = estimate;
      });
      changed = true;
    }
    if (!changed) return;
    // Set before the first await: a change meanwhile waits for the answer.
    subscription.awaitingAnswer = true;
    let sdp: string;
    try {
      await pc.setLocalDescription(await pc.createOffer());
      sdp = await gatheredDescription(pc);
    } catch (err) {
      // No offer is out: the next change tries again.
      subscription.awaitingAnswer = false;
      throw err;
    }
    const described: SubscribedTrack[] = [...tracks].map(([track, transceiver]) => ({
      mid: transceiver.mid ?? '',
      participant: track.owner.identity,
      kind: track.kind,
    }));
    this.send({ type: 'subscribe_offer', conn: member.conn, sdp, tracks: described });
  }

  /** Every participant but `changed` (whose tracks came or went) renegotiated; one's failure is its own. */
  private async renegotiateOthers(changed: Member): Promise<void> {
    for (const other of this.members.values()) {
      if (other === changed) continue;
      await this.renegotiate(other).catch((err: unknown) =>
        this.send({ type: 'failed', conn: other.conn, refused: 'subscribe_offer', message: (err as Error).message }),
      );
    }
  }

  /** The subscribers receiving `track`, with their estimates and how many video tracks share each. */
  private subscribersOf(track: PublishedTrack): { estimate?: ReceiverEstimate; videoTracks: number }[] {
    const subscribers = [];
    for (const member of this.members.values()) {
      const subscription = member.subscription;
      if (!subscription?.tracks.has(track)) continue;
      let videoTracks = 0;
      for (const received of subscription.tracks.keys()) if (received.kind === 'video') videoTracks++;
      subscribers.push({ estimate: subscription.estimate, videoTracks });
    }
    return subscribers;
  }

  /**
   * A connection that fails (ICE, its consent to send expired, or DTLS) is only that participant's: nothing else of
   * the room changes, and its client sees the failure and joins again. Logged: a publisher's failed connection
   * stops its tracks for everyone, which the server's log should say.
   */
  private logFailure(pc: PeerConnection, what: string): void {
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed')
        this.send({ type: 'log', level: 'warn', message: `media process: ${what} failed (ICE or DTLS)` });
    });
  }

  private newSubscription(): Subscription {
    const pc = newPeerConnection(this.mux);
    // The connection's anchor: a data channel, offered first and never removed. A browser configured for
    // max-bundle refuses an offer without a BUNDLE group, which one whose every track went away would be.
    pc.createDataChannel('switchboard');
    const subscription: Subscription = { pc, tracks: new Map(), awaitingAnswer: false, stale: false, added: [] };
    // Chromium sends no periodic keyframes: without asking once the subscriber can receive, it would see no frame.
    pc.connectionStateChange.subscribe((state) => {
      if (state !== 'connected') return;
      for (const track of subscription.tracks.keys()) track.keyframes?.request();
    });
    return subscription;
  }
}
