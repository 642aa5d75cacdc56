/**
 * Bitrate feedback through the SFU: each subscriber's receiver estimate (REMB, which werift's offer negotiates as
 * `goog-remb`) is read from the server's senders, and a publisher's video track is sent a REMB that caps it to what
 * its slowest subscriber can take *while that subscriber is congested*: its estimate below what the track sends now.
 * Otherwise no cap: a healthy receiver's estimate stays within 1.5× of what it receives, so capping to it always held
 * Chromium's target at ≈330 kbps for a fake camera that sends ≈220 (where it ramps to 520 kbps uncapped).
 * REMB, not transport-cc: transport-cc on the publish connection made Chromium's bitrate collapse
 * (docs/architecture.md), and a REMB is only a ceiling, under which Chromium's own estimate keeps working.
 */
import type { RTCRtpReceiver, RTCRtpSender, RtcpPacket } from 'werift';
import { werift } from './werift.js';

const { ReceiverEstimatedMaxBitrate, RtcpPayloadSpecificFeedback } = werift;

/**
 * The lowest cap a publisher is sent (bits per second): one subscriber on a bad link lowers everyone's video, but not
 * below what still carries a small picture (LiveKit's idea of a floor; a subscriber below it loses packets instead).
 */
export const BITRATE_FLOOR = 150_000;
/** How often each published video track's cap is sent (Chromium sends its own REMB about once a second). */
export const BITRATE_CAP_INTERVAL_MS = 1_000;
/** An estimate older than this is forgotten: its subscriber stopped sending REMB, or left. */
export const ESTIMATE_MAX_AGE_MS = 5_000;
/** The REMB that lifts an earlier cap once no subscriber is congested: a ceiling no publisher reaches (100 Mbps). */
export const UNCAPPED = 100_000_000;

/** A subscribe connection's latest receiver estimate, for all it receives. */
export interface ReceiverEstimate {
  bitsPerSecond: number;
  at: number;
}

/** Keeps `estimate` up to date from the REMBs a subscriber sends about what `sender` sends it. */
export function readReceiverEstimates(sender: RTCRtpSender, update: (estimate: ReceiverEstimate) => void): void {
  sender.onRtcp.subscribe((packet: RtcpPacket) => {
    if (packet.type !== RtcpPayloadSpecificFeedback.type) return;
    const { feedback } = packet;
    if (!(feedback instanceof ReceiverEstimatedMaxBitrate)) return;
    update({ bitsPerSecond: Number(feedback.bitrate), at: performance.now() });
  });
}

/**
 * The cap of one published video track that sends `sendingBps` now: the smallest share of the fresh estimates of its
 * subscribers (each subscriber's estimate covers its whole connection, shared equally by the video tracks it
 * receives), never below the floor, when it is below what the track sends. `undefined` when no subscriber is
 * congested (or none has an estimate): the publisher is then left to its own estimate.
 */
export function bitrateCap(
  subscribers: { estimate?: ReceiverEstimate; videoTracks: number }[],
  sendingBps: number,
  now = performance.now(),
  floor = BITRATE_FLOOR,
): number | undefined {
  let cap = Number.POSITIVE_INFINITY;
  for (const { estimate, videoTracks } of subscribers) {
    if (!estimate || now - estimate.at > ESTIMATE_MAX_AGE_MS || videoTracks === 0) continue;
    cap = Math.min(cap, estimate.bitsPerSecond / videoTracks);
  }
  return cap < sendingBps ? Math.max(floor, Math.round(cap)) : undefined;
}

/** Sends the publisher a REMB for its stream `ssrc`, from the receiver of that stream on the publish connection. */
export function sendBitrateCap(receiver: RTCRtpReceiver, ssrc: number, bitsPerSecond: number): Promise<void> {
  // The bitrate is a mantissa of 18 bits times a power of two.
  let mantissa = Math.max(0, Math.round(bitsPerSecond));
  let exponent = 0;
  while (mantissa >= 2 ** 18) {
    mantissa = Math.floor(mantissa / 2);
    exponent++;
  }
  const remb = new ReceiverEstimatedMaxBitrate({
    senderSsrc: receiver.rtcpSsrc,
    mediaSsrc: 0,
    brExp: exponent,
    brMantissa: mantissa,
    ssrcNum: 1,
    ssrcFeedbacks: [ssrc],
  });
  return receiver.dtlsTransport.sendRtcp([new RtcpPayloadSpecificFeedback({ feedback: remb })]).then(() => {});
}

export interface BitrateCapper {
  /** Counts a packet of the track (its size in bytes), for the rate it sends. */
  received(bytes: number): void;
  stop(): void;
}

/**
 * Each interval: the track's rate over it, and `cap(rate)` sent while there is one; once there is none, one REMB
 * of {@link UNCAPPED} lifts it (Chromium keeps the last REMB's ceiling until the next). Stopped with the track.
 */
export function bitrateCapper(
  cap: (sendingBps: number) => number | undefined,
  send: (bitsPerSecond: number) => void,
  intervalMs = BITRATE_CAP_INTERVAL_MS,
): BitrateCapper {
  let bytes = 0;
  let capped = false;
  const timer = setInterval(() => {
    const bitsPerSecond = cap((bytes * 8 * 1000) / intervalMs);
    bytes = 0;
    if (bitsPerSecond !== undefined) send(bitsPerSecond);
    else if (capped) send(UNCAPPED);
    capped = bitsPerSecond !== undefined;
  }, intervalMs);
  timer.unref();
  return {
    received(count) {
      bytes += count;
    },
    stop: () => clearInterval(timer),
  };
}
