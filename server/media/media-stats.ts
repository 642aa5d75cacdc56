/**
 * What the media process counts of each participant's media, as the server sees it (issue 47): per track, packets
 * and payload bytes received from its publisher and sent to each subscriber, packets lost, and the bitrate over the
 * last few seconds. Nothing is counted per packet here: werift counts every packet already (the receiver's
 * per-SSRC statistics, which its RTCP receiver reports are made of, and the sender's packet and octet counts, which
 * its sender reports are made of), and this reads those counters when asked, and once a second for the bitrate.
 */
import type { RTCRtpReceiver, RTCRtpSender } from 'werift';
import type { MediaKind, MediaTotals, ParticipantMediaStats, TrackStats } from './protocol.js';
import type { MediaRoom, Member } from './room.js';

/** How often the bytes of every stream are sampled, and how many samples the bitrate spans. */
export const SAMPLE_INTERVAL_MS = 1000;
const SAMPLES = 5;

/**
 * werift 0.25.2's counters (the version is pinned), which its typings keep private: reading them costs nothing, while
 * its public `getStats()` builds a whole report of every stream per call.
 */
interface StreamStatistics {
  packets_received: number;
  bytesReceived: number;
  /** Sequence numbers expected (from the first to the highest seen) less packets received. */
  readonly packets_lost: number;
}
interface ReceiverCounters {
  remoteStreams: Record<number, StreamStatistics | undefined>;
}
interface SenderCounters {
  packetCount: number;
  octetCount: number;
  /** The cumulative loss of the subscriber's last RTCP receiver report, if one came. */
  remotePacketsLost?: number;
}

interface Counted {
  packets: number;
  bytes: number;
  packetsLost: number;
}

const NOTHING: Counted = { packets: 0, bytes: 0, packetsLost: 0 };

function receivedOn(receiver: RTCRtpReceiver, ssrc: number): { key: object; counted: Counted } | undefined {
  const stream = (receiver as unknown as ReceiverCounters).remoteStreams[ssrc];
  if (!stream) return undefined;
  return {
    key: stream,
    counted: { packets: stream.packets_received, bytes: stream.bytesReceived, packetsLost: stream.packets_lost },
  };
}

function sentBy(sender: RTCRtpSender): Counted {
  const counters = sender as unknown as SenderCounters;
  return {
    packets: counters.packetCount,
    bytes: counters.octetCount,
    // A report's cumulative loss is signed (duplicates can make it negative).
    packetsLost: Math.max(0, counters.remotePacketsLost ?? 0),
  };
}

/** The last samples of one stream's byte count: a ring, allocated once per stream. */
class ByteSamples {
  private readonly at = new Float64Array(SAMPLES);
  private readonly bytes = new Float64Array(SAMPLES);
  private count = 0;
  private next = 0;

  add(at: number, bytes: number): void {
    this.at[this.next] = at;
    this.bytes[this.next] = bytes;
    this.next = (this.next + 1) % SAMPLES;
    this.count = Math.min(this.count + 1, SAMPLES);
  }

  /** Bits per second from the oldest sample kept to `bytes` now; 0 before the first sample. */
  bitrate(now: number, bytes: number): number {
    if (this.count === 0) return 0;
    const oldest = this.count < SAMPLES ? 0 : this.next;
    const elapsedMs = now - (this.at[oldest] ?? now);
    if (elapsedMs <= 0) return 0;
    return Math.round(((bytes - (this.bytes[oldest] ?? bytes)) * 8 * 1000) / elapsedMs);
  }
}

/** One stream of a participant: its counters now, and the object its samples are kept under. */
interface Stream {
  key: object;
  direction: TrackStats['direction'];
  kind: MediaKind;
  from: string;
  counted: Counted;
}

/** Every stream of the participant's connections: the tracks it publishes, then those it receives. */
function* streamsOf(member: Member): Generator<Stream> {
  for (const transceiver of member.publish?.getTransceivers() ?? []) {
    const { receiver } = transceiver;
    for (const track of receiver.tracks) {
      if (track.ssrc === undefined) continue;
      const received = receivedOn(receiver, track.ssrc);
      yield {
        key: received?.key ?? track,
        direction: 'publish',
        kind: track.kind as MediaKind,
        from: member.identity,
        counted: received?.counted ?? NOTHING,
      };
    }
  }
  for (const [published, transceiver] of member.subscription?.tracks ?? []) {
    const { sender } = transceiver;
    yield {
      key: sender,
      direction: 'subscribe',
      kind: published.kind,
      from: published.owner.identity,
      counted: sentBy(sender),
    };
  }
}

export interface MediaStats {
  /** Every participant of the room with its tracks' counters now. */
  of(room: MediaRoom): ParticipantMediaStats[];
  /** What the participant's connections carried so far (read before it leaves); undefined for one without media. */
  totalsOf(room: MediaRoom, conn: string): MediaTotals | undefined;
  stop(): void;
}

/** Samples every stream of `rooms` once a second (the bitrate's window) until stopped. */
export function createMediaStats(rooms: ReadonlyMap<string, MediaRoom>): MediaStats {
  const samples = new WeakMap<object, ByteSamples>();
  const sample = () => {
    const now = performance.now();
    for (const room of rooms.values())
      for (const member of room.participants.values())
        for (const stream of streamsOf(member)) {
          let kept = samples.get(stream.key);
          if (!kept) {
            kept = new ByteSamples();
            samples.set(stream.key, kept);
          }
          kept.add(now, stream.counted.bytes);
        }
  };
  const timer = setInterval(sample, SAMPLE_INTERVAL_MS);
  timer.unref();

  return {
    of(room) {
      const now = performance.now();
      return [...room.participants.values()].map((member) => ({
        conn: member.conn,
        identity: member.identity,
        tracks: [...streamsOf(member)].map(({ key, direction, kind, from, counted }) => ({
          direction,
          kind,
          from,
          ...counted,
          bitrate: samples.get(key)?.bitrate(now, counted.bytes) ?? 0,
        })),
      }));
    },
    totalsOf(room, conn) {
      const member = room.participants.get(conn);
      if (!member || (!member.publish && !member.subscription)) return undefined;
      const totals: MediaTotals = { bytesIn: 0, bytesOut: 0, packetsLostIn: 0, packetsLostOut: 0 };
      for (const { direction, counted } of streamsOf(member)) {
        if (direction === 'publish') {
          totals.bytesIn += counted.bytes;
          totals.packetsLostIn += counted.packetsLost;
        } else {
          totals.bytesOut += counted.bytes;
          totals.packetsLostOut += counted.packetsLost;
        }
      }
      return totals;
    },
    stop: () => clearInterval(timer),
  };
}
