import { type ClientOptions, Transport } from './transport.js';
import type { TelemetryAccepted, TelemetryInput } from './types.js';

export interface TelemetryClientOptions extends ClientOptions {
  /** The RTC token the call already joined its room with (`ServerClient.rooms.rtcTokens.create`). */
  token: string;
}

/**
 * For a call's client, with its RTC token: reports what happened on its side (joined, media problems, quality) to
 * the observability log of the token's project environment, room and identity. Browser-safe: `fetch` only.
 */
export class TelemetryClient {
  private readonly transport: Transport;

  constructor(options: TelemetryClientOptions) {
    this.transport = new Transport(options, options.token);
  }

  /** Up to 100 events a call: `type` (letters, digits and `_ . : -`), `at` (default: when received), `data`. */
  send(events: TelemetryInput['events']): Promise<TelemetryAccepted> {
    return this.transport.call('sendTelemetry', { body: { events } });
  }
}
