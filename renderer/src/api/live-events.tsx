import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ConsoleClient, Environment, LiveEvent, LiveEventType } from '../sdk';
import { useClient } from '../session/session-context';
import { refreshEnvironment } from './environments';

type Listener = (event: LiveEvent) => void;
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'off';

/** Waits before reopening a stream that dropped: 1 s, doubling to 15 s (reset once a stream is open). */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 15_000;

/**
 * One live event stream (`GET /v1/projects/{id}/events`) for the project and environment on screen, shared by
 * every page: pages subscribe to it instead of polling. A dropped stream is reopened; nothing is replayed, so
 * on reopening the project's queries are refreshed to catch up with what happened in between.
 */
class LiveEventHub {
  private readonly listeners = new Set<Listener>();
  private readonly statusListeners = new Set<() => void>();
  private current: LiveStatus = 'connecting';
  private readonly controller = new AbortController();

  constructor(
    private readonly client: ConsoleClient,
    private readonly projectId: string,
    private readonly environment: Environment,
    private readonly onReopened: () => void,
  ) {}

  readonly status = (): LiveStatus => this.current;

  readonly onStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.controller.abort();
    this.setStatus('off');
  }

  private async run(): Promise<void> {
    const { signal } = this.controller;
    let delay = RETRY_FIRST_MS;
    let opened = false;
    while (!signal.aborted) {
      try {
        const stream = await this.client.observability.events(this.projectId, {
          environment: this.environment,
          signal,
        });
        if (opened) this.onReopened();
        opened = true;
        delay = RETRY_FIRST_MS;
        this.setStatus('live');
        for await (const event of stream) for (const listener of this.listeners) listener(event);
      } catch {
        // Refused (session ended: the page's own queries take the user to sign-in) or dropped: try again below.
      }
      if (signal.aborted) return;
      this.setStatus('reconnecting');
      await sleep(delay, signal);
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    }
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.current) return;
    this.current = status;
    for (const listener of this.statusListeners) listener();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const LiveEventsContext = createContext<LiveEventHub | null>(null);

/**
 * Opens the live event stream of one project and environment for the pages below. `enabled` is false for a
 * role that may not read it (BILLING): the pages then show what they loaded, without live updates.
 */
export function LiveEventsProvider({
  projectId,
  environment,
  enabled,
  children,
}: {
  projectId: string;
  environment: Environment;
  enabled: boolean;
  children: ReactNode;
}) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [hub, setHub] = useState<LiveEventHub | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const opened = new LiveEventHub(client, projectId, environment, () =>
      queryClient.invalidateQueries({ predicate: (query) => query.queryKey.includes(projectId) }),
    );
    // Reset from elsewhere (another tab, the CLI, a test suite): everything shown of the environment is gone.
    const unsubscribe = opened.subscribe((event) => {
      if (event.type === 'environment.reset') void refreshEnvironment(queryClient, projectId, environment);
    });
    opened.start();
    setHub(opened);
    return () => {
      unsubscribe();
      opened.stop();
      setHub(null);
    };
  }, [client, queryClient, projectId, environment, enabled]);
  return <LiveEventsContext value={hub}>{children}</LiveEventsContext>;
}

/** Calls `listener` with every live event of the page's project and environment (the latest listener given). */
export function useLiveEvents(listener: Listener): void {
  const hub = useContext(LiveEventsContext);
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => hub?.subscribe((event) => latest.current(event)), [hub]);
}

const offStatus = () => 'off' as const;
const noSubscription = () => () => {};

/** Whether live updates are flowing: shown beside pages that update themselves. */
export function useLiveStatus(): LiveStatus {
  const hub = useContext(LiveEventsContext);
  return useSyncExternalStore(hub?.onStatus ?? noSubscription, hub?.status ?? offStatus);
}

/** At most one refresh per this interval while events keep coming (200 messages a second make one refresh). */
const REFRESH_INTERVAL_MS = 500;

/**
 * Refreshes the queries under `queryKey` when a live event says their data changed: `matches` picks the events
 * (by type, or anything in the event). Bursts are coalesced: the first event refreshes at once, the ones that
 * follow within half a second make one more refresh at its end.
 */
export function useRefreshOn(matches: readonly LiveEventType[] | ((event: LiveEvent) => boolean), queryKey: QueryKey) {
  const queryClient = useQueryClient();
  const state = useRef({ last: 0, timer: undefined as ReturnType<typeof setTimeout> | undefined });
  const key = JSON.stringify(queryKey);
  useEffect(() => () => clearTimeout(state.current.timer), []);
  useLiveEvents((event) => {
    const wanted = typeof matches === 'function' ? matches(event) : matches.includes(event.type);
    if (!wanted) return;
    const refresh = () => {
      state.current.last = Date.now();
      state.current.timer = undefined;
      void queryClient.invalidateQueries({ queryKey: JSON.parse(key) as QueryKey });
    };
    const wait = state.current.last + REFRESH_INTERVAL_MS - Date.now();
    if (wait <= 0) refresh();
    else state.current.timer ??= setTimeout(refresh, wait);
  });
}
