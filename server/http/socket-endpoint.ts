import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { PerMessageDeflateOptions, WebSocket, WebSocketServer } from 'ws';
import type * as z from 'zod';
import type { Clock } from '../clock.js';
import type { MessageRate } from '../security/settings.js';
import type { SocketLimits } from '../security/socket-limits.js';
import { describeIssue, parseClientInput } from '../shared/issue-messages.js';
import { createHeartbeat } from './heartbeat.js';
import { type SocketTap, socketTaps, tapReceived, tapSent } from './socket-taps.js';
import { describeNul, findNul, NUL_REFUSED } from './text-rules.js';
import type { UpgradeHandler } from './upgrade-router.js';

/** How often the server pings each socket; one that has not answered by its next ping is closed with 4408. */
export const HEARTBEAT_MS = 30_000;
/** A quarter of a second between turns: 10,000 sockets take 83 pings a turn (server/http/heartbeat.ts). */
const HEARTBEAT_SLOTS = 120;
/** Past this much unsent data a client is too slow to keep, rather than let memory grow. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Close code for a client that stopped answering pings or could not keep up. */
export const CLOSE_UNRESPONSIVE = 4408;
/** Close code for a client that sent messages faster than the socket's message rate allows. */
export const CLOSE_TOO_MANY_MESSAGES = 4429;
/** Both sockets' close code for a handshake without `access_token` (their protocols' `badRequest`). */
const CLOSE_MISSING_TOKEN = 4400;

/** Whether to send to this socket now: not once it closed, and a client whose unsent data piled up is dropped. */
export function readyToSend(socket: WebSocket): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    socket.close(CLOSE_UNRESPONSIVE, 'too slow: messages were piling up');
    return false;
  }
  return true;
}

/** Sends a JSON message, dropping a client whose unsent data has piled up. */
export function sendJson(socket: WebSocket, message: unknown): void {
  if (!readyToSend(socket)) return;
  const text = JSON.stringify(message);
  socket.send(text);
  tapSent(socket, text);
}

/** The credential of a socket handshake: `?access_token=` (browsers cannot set headers) or a bearer header. */
function handshakeToken(req: IncomingMessage): string | undefined {
  const fromQuery = new URL(req.url ?? '/', 'http://localhost').searchParams.get('access_token');
  if (fromQuery) return fromQuery;
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

export interface SocketEndpointOptions<Session, Message> {
  logger: Logger;
  clock: Clock;
  /** A larger message closes the socket with 1009 (Message Too Big). */
  maxMessageBytes: number;
  /** Whether and how to negotiate permessage-deflate (`ws`'s option); by default the endpoint does not. */
  perMessageDeflate?: PerMessageDeflateOptions;
  /** Messages a client may send, or null for no limit; past it the socket closes with 4429. */
  messageRate: MessageRate | null;
  /** What clients may send, validated before `onMessage`. */
  messageSchema: z.ZodType<Message>;
  /** The server's WebSocket limits: a socket past the server's is closed with 1013 before `admit`. */
  socketLimits: Pick<SocketLimits, 'admitToServer' | 'release'>;
  /**
   * Decides, after the handshake, whether the client with this credential may stay: returns its session,
   * or closes the socket itself (with a code and reason the client can show) and returns undefined. A
   * handshake without a credential never gets here: it is closed with 4400. Before its session joins anything,
   * it checks the environment's WebSocket limit (`SocketLimits.admitToEnvironment`).
   */
  admit(socket: WebSocket, token: string): Promise<Session | undefined>;
  onMessage(session: Session, message: Message, socket: WebSocket): void;
  /** After the socket closed, with the close code and reason it closed with. */
  onClose(session: Session, code: number, reason: string): void;
  /** The error message sent for an invalid or premature message. */
  protocolError(message: string, code: 'invalid_message' | 'not_joined'): unknown;
  /**
   * Taps each socket for the environment recordings (server/recordings): `tap` at the handshake, with the URL it asked
   * for, before admission sends anything; `admitted` once its session is known; `closed` after it closed.
   */
  recorder?: SocketRecorder<Session>;
}

export interface SocketRecorder<Session> {
  tap(socket: WebSocket, url: string, host: string | undefined): SocketTap;
  admitted(socket: WebSocket, session: Session): void;
  closed(socket: WebSocket, code: number, reason: string): void;
}

/**
 * A JSON-over-WebSocket endpoint: handshake always completes (so refusals arrive as close codes and
 * reasons, which browsers can read), ping/pong heartbeats, size limits, schema-checked messages.
 */
export function createSocketEndpoint<Session, Message>(options: SocketEndpointOptions<Session, Message>) {
  /**
   * The `ws` library loads with the first upgrade, not with the server's runtime: it brings Node's https, tls and zlib
   * with it, ≈5 ms that the first API answer no longer waits for.
   */
  let wss: WebSocketServer | undefined;
  let closed = false;
  let loading: Promise<WebSocketServer> | undefined;
  const webSocketServer = () =>
    (loading ??= import('ws').then(({ WebSocket, WebSocketServer }) => {
      wss = new WebSocketServer({
        noServer: true,
        WebSocket: answeringItsEvents(WebSocket),
        // The heartbeat and the sets below hold every socket already: `ws`'s own set of them cost each idle socket
        // ≈200 bytes (an entry, and a close listener with its closure beside the endpoint's).
        clientTracking: false,
        maxPayload: options.maxMessageBytes,
        perMessageDeflate: options.perMessageDeflate ?? false,
      });
      return wss;
    }));
  const sessions = new WeakMap<WebSocket, Session>();
  /**
   * Sockets refused at the server's WebSocket limit (or accepted after `close`), until they finish closing: few, not
   * counted by the limits, and none in the heartbeat.
   */
  const refused = new Set<WebSocket>();
  /** Sockets closed for not answering a ping, until they finish closing: the heartbeat pings them no more. */
  const unresponsive = new Set<WebSocket>();
  const heartbeat = createHeartbeat<WebSocket>({
    periodMs: HEARTBEAT_MS,
    slots: HEARTBEAT_SLOTS,
    onUnresponsive: (socket) => {
      unresponsive.add(socket);
      socket.close(CLOSE_UNRESPONSIVE, 'no answer to ping');
    },
  });

  /**
   * Each socket's token bucket: what it may still send now, and when that was worked out. In this node's memory even
   * when there are several nodes: a socket lives on one node, so its rate is counted whole there (unlike the limits of
   * security/limit-windows.ts, whose requests a load balancer spreads over every node).
   */
  const buckets = new WeakMap<WebSocket, { tokens: number; at: number }>();
  /** Takes a token for a message; false (after closing the socket) when the client sends too fast. */
  function withinRate(socket: WebSocket): boolean {
    const rate = options.messageRate;
    if (!rate) return true;
    const now = options.clock.now();
    const bucket = buckets.get(socket) ?? { tokens: rate.burst, at: now };
    bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * rate.perSecond);
    bucket.at = now;
    buckets.set(socket, bucket);
    if (bucket.tokens < 1) {
      socket.close(CLOSE_TOO_MANY_MESSAGES, `too many messages: at most ${rate.perSecond} a second`);
      return false;
    }
    bucket.tokens -= 1;
    return true;
  }

  function onRaw(socket: WebSocket, raw: Buffer): void {
    tapReceived(socket, raw);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      sendJson(socket, options.protocolError('Messages are JSON objects.', 'invalid_message'));
      return;
    }
    const nul = findNul(parsed);
    if (nul) {
      sendJson(socket, options.protocolError(`Invalid message: ${describeNul(nul, 'message')}`, 'invalid_message'));
      return;
    }
    const message = parseClientInput(options.messageSchema, parsed);
    if (!message.success) {
      const detail = message.error.issues.map((issue) => describeIssue(issue, 'message')).join('; ');
      sendJson(socket, options.protocolError(`Invalid message: ${detail}`, 'invalid_message'));
      return;
    }
    const session = sessions.get(socket);
    if (session === undefined) {
      sendJson(
        socket,
        options.protocolError('Wait for the first message from the server before sending.', 'not_joined'),
      );
      return;
    }
    options.onMessage(session, message.data, socket);
  }

  /**
   * The endpoint's socket class, which answers `ws`'s events itself: `ws` tells a socket's events by calling its
   * `emit`. A listener each for close, pong, message and error, shared by every socket, still made each idle socket's
   * table of listeners (a dictionary) ≈100 bytes larger. Listeners added with `on` hear every event as before.
   */
  function answeringItsEvents(Base: typeof WebSocket) {
    return class EndpointSocket extends Base {
      override emit(event: string | symbol, ...args: unknown[]): boolean {
        if (event === 'message') onMessage(this, args[0] as Buffer, args[1] as boolean);
        else if (event === 'pong') heartbeat.pong(this);
        else if (event === 'close') onClose(this, args[0] as number, args[1] as Buffer);
        else if (event === 'error') {
          this.terminate();
          // Handled: an 'error' event that no listener hears is thrown.
          if (this.listenerCount('error') === 0) return true;
        }
        return super.emit(event, ...args);
      }
    };
  }

  function onMessage(socket: WebSocket, data: Buffer, isBinary: boolean): void {
    if (!withinRate(socket)) return;
    if (isBinary) sendJson(socket, options.protocolError('Messages are JSON text.', 'invalid_message'));
    else onRaw(socket, data);
  }
  function onClose(socket: WebSocket, code: number, reason: Buffer): void {
    if (refused.delete(socket)) return;
    unresponsive.delete(socket);
    heartbeat.remove(socket);
    options.socketLimits.release(socket);
    const session = sessions.get(socket);
    if (session !== undefined) options.onClose(session, code, reason.toString());
    options.recorder?.closed(socket, code, reason.toString());
  }

  const handleUpgrade: UpgradeHandler = async (req, rawSocket, head) => {
    // Read here, so that no closure kept for the socket's life refers to the request (its headers, its parser).
    const token = handshakeToken(req);
    const url = req.url ?? '/';
    const host = req.headers.host;
    // The first upgrade waits for the library; the upgrade router keeps the socket's errors quiet meanwhile.
    const server = wss ?? (await webSocketServer().catch(logLoadFailure));
    if (closed) rawSocket.destroy();
    else if (!rawSocket.destroyed)
      server.handleUpgrade(req, rawSocket, head, (socket) => accept(socket, token, url, host));
  };

  function logLoadFailure(err: unknown): never {
    options.logger.error({ err }, 'the WebSocket library could not load');
    throw err;
  }

  function accept(socket: WebSocket, token: string | undefined, url: string, host: string | undefined): void {
    // A handshake that completed after `close`: nothing would end it, and it would start the heartbeat again.
    if (closed) {
      refused.add(socket);
      socket.terminate();
      return;
    }
    if (!options.socketLimits.admitToServer(socket)) {
      refused.add(socket);
      return;
    }
    heartbeat.add(socket);
    if (options.recorder) socketTaps.set(socket, options.recorder.tap(socket, url, host));
    if (!token) {
      socket.close(CLOSE_MISSING_TOKEN, 'missing access_token');
      return;
    }
    // No token the server signs holds one, but the rule is the same everywhere input is read.
    if (token.includes('\0')) {
      socket.close(CLOSE_MISSING_TOKEN, `access_token ${NUL_REFUSED}`);
      return;
    }
    options
      .admit(socket, token)
      .then((session) => {
        if (session === undefined) return;
        sessions.set(socket, session);
        options.recorder?.admitted(socket, session);
      })
      .catch((err: unknown) => {
        options.logger.error({ err }, 'socket admission failed');
        socket.close(1011, 'internal error');
      });
  }

  return {
    handleUpgrade,
    close(): void {
      closed = true;
      // Every open socket is in the heartbeat, or closing refused or unresponsive: listed before the heartbeat forgets
      // them. (`ws` waits 30 s for the answer to a close frame, which a client that answers nothing never sends.)
      const open = [...heartbeat.sockets(), ...refused, ...unresponsive];
      heartbeat.close();
      for (const socket of open) socket.terminate();
      wss?.close();
    },
  };
}
