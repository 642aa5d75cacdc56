/** The environment a replay plays against, and what the replay needs of it besides its traffic. */
export interface ReplayTarget {
  /** The server's URL, e.g. `http://127.0.0.1:4000`. */
  url: string;
  /** An API key of the environment: the replay's calls made with any key of the recording use it. */
  apiKey: string;
  /** Moves the environment's test clock forward, as the recording's `_testClock` times show it was. */
  advanceClock(seconds: number): Promise<void>;
  /** How many webhook attempts the environment has made since the replay began. */
  webhookAttempts(): Promise<number>;
  /** Sends the webhook deliveries due now (a throw-away server can; others do it every second). */
  runDueWebhooks?(): Promise<void>;
}

export type Pace = 'recorded' | 'fast';
