import { reconnectDelay } from './backoff.js';
import { ChatResources } from './chat/resources.js';
import { SwitchboardError } from './errors.js';
import { Listeners } from './listeners.js';
import type { ClientOptions } from './transport.js';
import { socketBaseOf, Transport } from './transport.js';
import type { Message, RealtimeClientFrame, RealtimeMessageRecord, RealtimeServerFrame } from './types.js';

/** An event frame of the realtime protocol, as the server's schema (`realtimeServerMessage`) defines it. */
type RealtimeEventFrame = Extract<RealtimeServerFrame, { conversationId: string }>;

/** The server's realtime event types. */
export type ChatEventType = RealtimeEventFrame['type'];

/**
 * A message as realtime events carry it; `cursor` is for `messages.list(id, {after})`, and absent on messages
 * replayed by catch-up from the REST list.
 */
export type RealtimeMessage = Omit<RealtimeMessageRecord, 'cursor'> & { cursor?: string };

export type MessageEventType = 'message.created' | 'message.updated' | 'message.deleted';

/** One realtime event, typed by the server's schema. `caughtUp` marks a `message.created` replayed after a reconnect. */
export type ChatEvent<T extends ChatEventType = ChatEventType> = T extends MessageEventType
  ? { type: T; conversationId: string; data: { message: RealtimeMessage }; caughtUp?: boolean }
  : Extract<RealtimeEventFrame, { type: T }>;

/** Connection life cycle, next to the server's events. */
export interface ChatLifecycleEvents {
  connected: { connectionId: string; userId: string; conversationIds: string[]; reconnected: boolean };
  disconnected: { code: number; reason: string };
  reconnecting: { attempt: number; delayMs: number };
  /** An `{type: 'error'}` frame from the server, or a failed catch-up request. */
  error: { code: string; message: string };
}

type EventsOf = { [K in ChatEventType]: ChatEvent<K> } & ChatLifecycleEvents;

/**
 * A handler property of a WebSocket. Declared as a method's type, whose parameter TypeScript compares both ways, so
 * that `ws`'s class (whose handlers take its own event classes) is a WebSocketLike without a cast, as the browser's is.
 */
type SocketHandler<E> = { handle(ev: E): void }['handle'] | null;

/** What the client needs of a WebSocket: the browser's, or `ws`'s in Node. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: SocketHandler<unknown>;
  onmessage: SocketHandler<{ data: unknown }>;
  onclose: SocketHandler<{ code: number; reason: string }>;
  onerror: SocketHandler<unknown>;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface ReconnectOptions {
  /** First delay (default 500 ms); doubled after each failed attempt… */
  initialDelayMs?: number;
  /**
   * …up to this (default 30 s). Each delay is jittered to between half and all of it. After a close with 1013 (the
   * server at its connection limit) the delays start at 5 s at least and may reach 60 s.
   */
  maxDelayMs?: number;
  /** Give up after this many attempts in a row (default: never). */
  maxAttempts?: number;
}

export interface ChatClientOptions extends ClientOptions {
  /** A chat token from your backend (`ServerClient.chatTokens.create`). */
  token: string;
  /** The WebSocket class; the global one by default (browsers, Node 22+). Pass `ws`'s in Node 20. */
  WebSocket?: WebSocketConstructor;
  /** Reconnect with exponential backoff and jitter (the default), or `false` to stay closed. */
  reconnect?: ReconnectOptions | false;
  /** Called with each new socket: lets tests drop the connection (`socket.terminate()`). */
  onSocket?: (socket: WebSocketLike) => void;
}

const OPEN = 1;
/** Close codes after which reconnecting cannot help: bad request, invalid or expired token. */
const FATAL_CLOSE_CODES = new Set([4400, 4401]);
const SEEN_LIMIT = 2000;

/**
 * For end-user apps, with a chat token: the chat REST calls as the token's user, and the realtime
 * socket with typed events. On a dropped connection it reconnects with backoff; once back, it
 * lists, per conversation, the messages after the last cursor it received and emits them as
 * `message.created` (with `caughtUp: true`) before any live event, each message exactly once.
 * Browser-safe: `fetch` and `WebSocket` only.
 */
export class ChatClient extends ChatResources {
  private readonly WebSocketImpl: WebSocketConstructor | undefined;
  private readonly reconnectOptions: Required<ReconnectOptions> | false;
  private readonly onSocket: ((socket: WebSocketLike) => void) | undefined;
  private readonly listeners = new Listeners<EventsOf>();
  private socket: WebSocketLike | undefined;
  private closedByUser = false;
  private everConnected = false;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** conversationId → the server's cursor up to which this client has every message (received or caught up). */
  private readonly cursors = new Map<string, string>();
  /**
   * The server's cursor (its `connected` frame) of the latest connection this client is caught up to:
   * where catch-up starts in a conversation with no cursor of its own. Only the server's cursors are
   * compared, never the two clocks.
   */
  private position: string | undefined;
  /** Ids of `message.created` already emitted (bounded), for exactly-once delivery. */
  private readonly seen = new Set<string>();
  /** Conversations whose presence this client watches (`watchPresence`), asked again on every new socket. */
  private readonly presenceWatched = new Set<string>();
  /** Live events held back while catch-up runs. */
  private buffer: RealtimeEventFrame[] | undefined;

  constructor(options: ChatClientOptions) {
    super(new Transport(options, options.token));
    this.WebSocketImpl =
      options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ?? undefined;
    this.reconnectOptions =
      options.reconnect === false
        ? false
        : {
            initialDelayMs: options.reconnect?.initialDelayMs ?? 500,
            maxDelayMs: options.reconnect?.maxDelayMs ?? 30_000,
            maxAttempts: options.reconnect?.maxAttempts ?? Number.POSITIVE_INFINITY,
          };
    this.onSocket = options.onSocket;
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** True while the realtime socket is open. */
  get connected(): boolean {
    return this.socket?.readyState === OPEN;
  }

  /** Listens to one event type; answers a function that stops listening. */
  on<K extends keyof EventsOf>(type: K, listener: (event: EventsOf[K]) => void): () => void {
    return this.listeners.on(type, listener);
  }

  /** Opens the realtime socket; resolves on the server's `connected` frame. */
  connect(): Promise<ChatLifecycleEvents['connected']> {
    this.closedByUser = false;
    return new Promise((resolve, reject) => {
      const off = this.on('connected', (event) => {
        off();
        offClose();
        resolve(event);
      });
      const offClose = this.on('disconnected', (event) => {
        if (this.everConnected && !FATAL_CLOSE_CODES.has(event.code)) return;
        off();
        offClose();
        reject(new Error(`The realtime socket closed (${event.code} ${event.reason})`));
      });
      this.open();
    });
  }

  /** Says the user is typing (the server stops it by itself after a few seconds). */
  typing(conversationId: string): boolean {
    return this.send({ type: 'typing.start', conversationId });
  }

  stopTyping(conversationId: string): boolean {
    return this.send({ type: 'typing.stop', conversationId });
  }

  /**
   * Follows every presence change in the conversation: needed in one reached by more than 100 sockets, where the
   * server sends presence only to those who watch it (smaller ones send it to everyone). Answered with a
   * `presence.snapshot` event (who is online now), then `presence.changed` events; kept across reconnects.
   */
  watchPresence(conversationId: string): void {
    this.presenceWatched.add(conversationId);
    this.send({ type: 'presence.watch', conversationId });
  }

  unwatchPresence(conversationId: string): void {
    this.presenceWatched.delete(conversationId);
    this.send({ type: 'presence.unwatch', conversationId });
  }

  /** Marks a message (and everything before it) read, over the socket. */
  markRead(messageId: string): boolean {
    return this.send({ type: 'read', messageId });
  }

  /** Closes the socket for good: no reconnect. */
  close(): void {
    this.closedByUser = true;
    clearTimeout(this.timer);
    this.socket?.close(1000, 'client closed');
    this.socket = undefined;
  }

  private send(message: RealtimeClientFrame): boolean {
    if (this.socket?.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private emit(type: string, event: unknown): void {
    this.listeners.emit(type, event);
  }

  private open(): void {
    if (!this.WebSocketImpl)
      throw new Error(
        'No WebSocket here: pass one as the `WebSocket` option (in Node 20: `import WebSocket from "ws"`).',
      );
    const url = `${this.realtimeBase()}/v1/realtime?access_token=${encodeURIComponent(this.transport.credential ?? '')}`;
    const socket = new this.WebSocketImpl(url);
    this.socket = socket;
    this.onSocket?.(socket);
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      // A frame carries one message, or several separated by newlines.
      for (const line of String(ev.data).split('\n')) {
        // Typed by the server's schema, not checked here: the SDK carries no validator.
        let frame: RealtimeServerFrame;
        try {
          frame = JSON.parse(line) as RealtimeServerFrame;
        } catch {
          continue;
        }
        this.receive(frame);
      }
    };
    socket.onerror = () => undefined;
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.buffer = undefined;
      this.emit('disconnected', { code: ev.code, reason: ev.reason });
      if (!this.closedByUser && !FATAL_CLOSE_CODES.has(ev.code)) this.scheduleReconnect(ev.code);
    };
  }

  private realtimeBase(): string {
    return socketBaseOf(this.transport.baseUrl);
  }

  /** Opens a new socket after a delay: a longer one after 1013 (the server at its limit), so as not to hammer it. */
  private scheduleReconnect(closeCode: number): void {
    const options = this.reconnectOptions;
    if (!options || this.attempts >= options.maxAttempts) return;
    const delayMs = reconnectDelay(this.attempts, options, closeCode);
    this.attempts += 1;
    this.emit('reconnecting', { attempt: this.attempts, delayMs });
    this.timer = setTimeout(() => {
      if (!this.closedByUser) this.open();
    }, delayMs);
  }

  private receive(frame: RealtimeServerFrame): void {
    if (frame.type === 'connected') {
      // A new socket watches nothing yet.
      for (const conversationId of this.presenceWatched) this.send({ type: 'presence.watch', conversationId });
      const reconnected = this.everConnected;
      this.everConnected = true;
      this.attempts = 0;
      const event = {
        connectionId: frame.connectionId,
        userId: frame.userId,
        conversationIds: frame.conversationIds,
        reconnected,
      };
      const cursor = frame.cursor;
      if (!reconnected) {
        this.position = cursor;
        this.emit('connected', event);
        return;
      }
      this.buffer = [];
      const socket = this.socket;
      void this.catchUp(event.conversationIds, cursor).finally(() => {
        if (this.socket !== socket) return;
        const held = this.buffer ?? [];
        this.buffer = undefined;
        this.emit('connected', event);
        for (const f of held) this.dispatch(f);
      });
      return;
    }
    if (frame.type === 'pong') return;
    if (frame.type === 'error') {
      this.emit('error', { code: frame.code, message: frame.message });
      return;
    }
    if (this.buffer) this.buffer.push(frame);
    else this.dispatch(frame);
  }

  private dispatch({ type, conversationId, data }: RealtimeEventFrame): void {
    if (type === 'message.created') {
      // Only a new message moves the cursor: an edit or deletion carries an older message's.
      this.cursors.set(conversationId, data.message.cursor);
      if (!this.remember(data.message.id)) return;
    }
    this.emit(type, { type, conversationId, data });
  }

  /** False when the id was already emitted. */
  private remember(id: string): boolean {
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value as string);
    return true;
  }

  /**
   * Replays, per conversation, what was created after its cursor (or after the previous connection's
   * position), then moves the cursor to `upTo`, the new connection's position: everything before it
   * has now been listed, and everything after it arrives live on the new socket.
   */
  private async catchUp(conversationIds: string[], upTo: string | undefined): Promise<void> {
    const all = new Set([...this.cursors.keys(), ...conversationIds]);
    for (const conversationId of all) {
      const from = this.cursors.get(conversationId) ?? this.position;
      if (from === undefined) continue;
      try {
        await this.catchUpOne(conversationId, from);
        if (upTo !== undefined) this.cursors.set(conversationId, upTo);
      } catch (err) {
        // Removed from it (or it was deleted) while away: none of it can be read any more, and none is owed. Its
        // cursor goes, so that later reconnects do not ask again.
        if (err instanceof SwitchboardError && err.status === 404 && !conversationIds.includes(conversationId)) {
          this.cursors.delete(conversationId);
          continue;
        }
        this.cursors.set(conversationId, this.cursors.get(conversationId) ?? from);
        this.emit('error', { code: 'CLIENT_CATCH_UP_FAILED', message: (err as Error).message });
      }
    }
    this.position = upTo ?? this.position;
  }

  private async catchUpOne(conversationId: string, from: string): Promise<void> {
    let cursor = from;
    for (;;) {
      const page = await this.messages.list(conversationId, { after: cursor, limit: 200 });
      for (const m of page.data) this.replay(conversationId, m);
      if (!page.nextCursor) return;
      cursor = page.nextCursor;
      this.cursors.set(conversationId, cursor);
    }
  }

  private replay(conversationId: string, m: Message): void {
    if (!this.remember(m.id)) return;
    const message: RealtimeMessage = {
      id: m.id,
      roomId: m.conversationId,
      senderId: m.senderId,
      text: m.text,
      parentId: m.parentId,
      deleted: m.deleted,
      createdAt: m.createdAt,
      editedAt: m.editedAt,
    };
    this.emit('message.created', { type: 'message.created', conversationId, data: { message }, caughtUp: true });
  }
}
