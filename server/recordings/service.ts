import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Request, Response } from 'express';
import type { WebSocket } from 'ws';
import { environmentRecordings, recordingEntries } from '../../db/schema/test-tools.js';
import { type EnvironmentScope, inScope, scopeKey, scopeValues } from '../../db/scope.js';
import { type Actor, SYSTEM_ACTOR } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { notFound, ServiceError } from '../errors.js';
import type { SocketRecorder } from '../http/socket-endpoint.js';
import { runningRecordings, type SocketTap, socketTaps } from '../http/socket-taps.js';
import type { EnvironmentClocks } from '../test-clock/clocks.js';
import type { RecordedCredential } from './credential.js';
import { buildHar, type HttpExchange, type SocketFrame, type WebhookAttemptRecord } from './har.js';
import { REDACTED, redactBody, redactHeaders, redactJson, redactUrl } from './redact.js';
import type { EndReason, StartRecordingInput } from './schemas.js';

export type RecordingRow = typeof environmentRecordings.$inferSelect;

/** Entries wait in memory at most this long, or until this many, then go to the store in one insert. */
const FLUSH_MS = 100;
const FLUSH_ENTRIES = 500;

interface PendingEntry {
  recordingId: string;
  scope: EnvironmentScope;
  kind: 'http' | 'webhook' | 'socket_open' | 'frame' | 'socket_close';
  connectionId: string | null;
  at: number;
  /** The environment's test-clock offset when it was in memory; else read at the flush. */
  offsetMs: number | undefined;
  /** The entry's JSON; a frame sent to many sockets is written at the flush, once all of them had it. */
  data: string | (() => string);
}

/** A frame built once for many sockets, while it is being sent to them: one entry, the sockets listed. */
interface FanOut {
  recordingId: string;
  text: string;
  connections: string[];
}

/** What the socket endpoints tell of a session: its environment and `conn_` id. */
export interface RecordedSession {
  id: string;
  scope: EnvironmentScope;
}

interface RecordedSocket extends SocketTap {
  /** The session, and its scope's key (made once: `frame` looks the recording up for every message). */
  session?: RecordedSession & { key: string };
  /** Frames the server sent before admission named the environment (the `connected` message): kept for it. */
  early?: { at: number; text: string }[];
  /** The recording its opening was written to. */
  openedIn?: string;
  /** Which credential admitted it (no secret). */
  credential?: RecordedCredential;
  /** Writes its opening to the recording, once. */
  open(recording: RecordingRow, session: RecordedSession, at: number): void;
}

const RESPONSE_HEADERS_KEPT = ['content-type', 'retry-after', 'x-request-id'];

/** A response body written in chunks, as UTF-8 text: a lone string as it is. */
function bodyText(chunks: readonly (string | Uint8Array)[]): string {
  if (chunks.length === 1 && typeof chunks[0] === 'string') return chunks[0];
  return Buffer.concat(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))).toString(
    'utf8',
  );
}

/**
 * Recordings of one environment's traffic, downloaded as HAR 1.2 (issue 49): REST calls made with its keys and
 * tokens, its realtime and signaling frames, its webhook attempts, each with wall and test-clock time, secrets
 * replaced before anything is stored. The truth is in the store: `environment_recordings` says which environments
 * are recorded (every node keeps the running ones in memory, read again when any node changes one), and each node
 * writes what it took to `recording_entries` in batches, adding to the recording's counters in the same
 * transaction, where the size limit is checked. Production only with the operator's leave (`serve
 * --allow-production-recording`).
 */
export function createRecordingService(
  { store, clock, ids, events, cluster, logger, security, version }: Infrastructure,
  audit: AuditService,
  clocks: EnvironmentClocks,
) {
  /** The running recordings, by scope key. */
  let running = new Map<string, RecordingRow>();
  let counted = 0;
  const deadlines = new Map<string, NodeJS.Timeout>();
  let pending: PendingEntry[] = [];
  /** Frames of many sockets, by their bytes (the same Buffer for each socket), until they go to the store. */
  let fanOuts = new WeakMap<Buffer, FanOut>();
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let closed = false;

  function setRunning(rows: readonly RecordingRow[]): void {
    running = new Map(rows.map((row) => [scopeKey(row), row]));
    runningRecordings.count += running.size - counted;
    counted = running.size;
    for (const [id, timer] of deadlines) {
      if (rows.some((row) => row.id === id)) continue;
      clearTimeout(timer);
      deadlines.delete(id);
    }
    for (const row of rows) {
      if (deadlines.has(row.id)) continue;
      const wait = Math.max(0, row.startedAt + row.maxDurationMs - clock.now());
      const timer = setTimeout(() => {
        deadlines.delete(row.id);
        end(SYSTEM_ACTOR, row.id, 'duration_limit').catch((err: unknown) =>
          logger.warn({ err, recordingId: row.id }, 'recordings: could not end one at its duration limit'),
        );
      }, wait);
      timer.unref();
      deadlines.set(row.id, timer);
    }
  }

  let reading = 0;
  async function reload(): Promise<void> {
    const turn = ++reading;
    const rows = await store.db
      .select()
      .from(environmentRecordings)
      .where(eq(environmentRecordings.state, 'recording'));
    if (turn === reading && !closed) setRunning(rows);
  }
  const reloadQuietly = () => {
    reload().catch((err: unknown) => logger.warn({ err }, 'recordings: could not read the running ones'));
  };
  events.on('environment.recording_changed', reloadQuietly);
  events.on('project.deleted', reloadQuietly);
  cluster.onBusChange(reloadQuietly);
  const ready = reload().catch((err: unknown) => logger.warn({ err }, 'recordings: could not read the running ones'));

  const recordingOf = (scope: EnvironmentScope) => (running.size === 0 ? undefined : running.get(scopeKey(scope)));

  /** Each running recording's scope, made once rather than for every entry. */
  const scopes = new WeakMap<RecordingRow, EnvironmentScope>();

  function take(
    recording: RecordingRow,
    kind: PendingEntry['kind'],
    connectionId: string | null,
    at: number,
    data: PendingEntry['data'],
  ): void {
    let scope = scopes.get(recording);
    if (!scope) {
      scope = { projectId: recording.projectId, environment: recording.environment };
      scopes.set(recording, scope);
    }
    pending.push({
      recordingId: recording.id,
      scope,
      kind,
      connectionId,
      at,
      offsetMs: clocks.peekOffset(scope),
      data,
    });
    if (pending.length >= FLUSH_ENTRIES) flushSoon(0);
    else flushSoon(FLUSH_MS);
  }

  function flushSoon(ms: number): void {
    if (flushTimer && ms > 0) return;
    clearTimeout(flushTimer);
    flushTimer = setTimeout(() => {
      flushTimer = undefined;
      void flush();
    }, ms);
    flushTimer.unref();
  }

  /** Writes what waits in memory; never rejects. */
  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      const batch = pending;
      pending = [];
      // A frame sent from now on is a new entry, even if it is one a socket of this batch had.
      fanOuts = new WeakMap();
      if (batch.length === 0) return;
      try {
        await write(batch);
      } catch (err) {
        logger.warn({ err, entries: batch.length }, 'recordings: could not write entries');
      }
    });
    return flushing;
  }

  async function write(batch: PendingEntry[]): Promise<void> {
    for (const entry of batch) {
      entry.offsetMs ??= await clocks.offset(entry.scope);
      if (typeof entry.data === 'function') entry.data = entry.data();
    }
    const byRecording = new Map<string, PendingEntry[]>();
    for (const entry of batch) {
      const list = byRecording.get(entry.recordingId) ?? [];
      list.push(entry);
      byRecording.set(entry.recordingId, list);
    }
    const now = clock.now();
    const ended = await store.transaction(async (tx) => {
      const limited: RecordingRow[] = [];
      const rows: (typeof recordingEntries.$inferSelect)[] = [];
      for (const [recordingId, entries] of byRecording) {
        const bytes = entries.reduce((sum, e) => sum + (e.data as string).length, 0);
        const [row] = await tx
          .update(environmentRecordings)
          .set({
            bytes: sql`${environmentRecordings.bytes} + ${bytes}`,
            entries: sql`${environmentRecordings.entries} + ${entries.length}`,
          })
          .where(and(eq(environmentRecordings.id, recordingId), eq(environmentRecordings.state, 'recording')))
          .returning();
        // Stopped meanwhile (on any node): what came after is not its.
        if (!row) continue;
        for (const e of entries)
          rows.push({
            id: ids.next('rce'),
            recordingId,
            kind: e.kind,
            connectionId: e.connectionId,
            at: e.at,
            clockAt: e.at + (e.offsetMs ?? 0),
            data: e.data as string,
          });
        if (row.bytes > row.maxBytes) {
          const [stopped] = await tx
            .update(environmentRecordings)
            .set({ state: 'stopped', endReason: 'size_limit', endedAt: now })
            .where(eq(environmentRecordings.id, recordingId))
            .returning();
          await auditEnd(tx, SYSTEM_ACTOR, stopped);
          limited.push(stopped);
        }
      }
      // A statement written once, not built by drizzle for each batch: that cost more than the database's work.
      await store.copyRows(recordingEntries, rows);
      return limited;
    });
    for (const row of ended) changed(row);
  }

  const auditEnd = (tx: Parameters<AuditService['record']>[0], actor: Actor, row: RecordingRow) =>
    audit.record(tx, {
      projectId: row.projectId,
      actor,
      action: 'environment.recording_stopped',
      target: { type: 'recording', id: row.id },
      environment: row.environment,
      details: { recordingId: row.id, endReason: row.endReason, bytes: row.bytes, entries: row.entries },
    });

  /** Told to every node after the commit: each reads the running recordings again; dashboards hear it. */
  function changed(row: RecordingRow): void {
    if (row.state !== 'recording') {
      const key = scopeKey(row);
      if (running.get(key)?.id === row.id) {
        running.delete(key);
        runningRecordings.count--;
        counted--;
      }
    }
    events.emit('environment.recording_changed', {
      projectId: row.projectId,
      environment: row.environment,
      recording: row,
    });
  }

  /** Ends a running recording; undefined when it had ended already. */
  async function end(actor: Actor, recordingId: string, reason: EndReason): Promise<RecordingRow | undefined> {
    // What this node took before the end belongs to the recording.
    await flush();
    const row = await store.transaction(async (tx) => {
      const [stopped] = await tx
        .update(environmentRecordings)
        .set({ state: 'stopped', endReason: reason, endedAt: clock.now() })
        .where(and(eq(environmentRecordings.id, recordingId), eq(environmentRecordings.state, 'recording')))
        .returning();
      if (stopped) await auditEnd(tx, actor, stopped);
      return stopped;
    });
    if (row) changed(row);
    return row;
  }

  async function find(scope: EnvironmentScope, recordingId: string): Promise<RecordingRow> {
    const [row] = await store.db
      .select()
      .from(environmentRecordings)
      .where(inScope(environmentRecordings, scope, eq(environmentRecordings.id, recordingId)))
      .limit(1);
    if (!row) throw notFound('SERVICE_RECORDING_NOT_FOUND', `No recording ${recordingId} in ${scope.environment}.`);
    return row;
  }

  function refuseProduction(scope: EnvironmentScope): void {
    if (scope.environment === 'production' && !security.allowProductionRecording)
      throw new ServiceError(
        'SERVICE_PRODUCTION_ENVIRONMENT',
        'Production is recorded only where the operator allows it (switchboard serve --allow-production-recording): ' +
          'its traffic is your live app’s users’. Record development or staging.',
      );
  }

  /** The socket side: each realtime and signaling socket gets a tap at its handshake. */
  function socketRecorder<Session extends RecordedSession>(
    kind: 'realtime' | 'signaling',
    credentialOf: (session: Session) => RecordedCredential,
  ): SocketRecorder<Session> {
    return {
      tap(_socket: WebSocket, path: string, host: string | undefined): SocketTap {
        let url = '';
        const tapped: RecordedSocket = {
          open(recording, session, at) {
            if (tapped.openedIn === recording.id) return;
            tapped.openedIn = recording.id;
            url ||= redactUrl(new URL(path, `ws://${host ?? 'localhost'}`).toString());
            take(
              recording,
              'socket_open',
              session.id,
              at,
              JSON.stringify({ socket: kind, url, credential: tapped.credential }),
            );
          },
          frame(type, payload) {
            const session = tapped.session;
            if (!session) {
              // Before admission (the `connected` message): kept until the session says whose it is.
              if (type === 'receive' && running.size > 0) {
                tapped.early ??= [];
                tapped.early.push({ at: clock.now(), text: payload.toString() });
              }
              return;
            }
            // Told for every socket a message goes to: what each costs is a lookup by the key made at admission.
            const recording = running.size === 0 ? undefined : running.get(session.key);
            if (!recording) return;
            // The clock is read once a socket's frame is to be kept, as its opening's time when it comes first.
            let at: number | undefined;
            if (tapped.openedIn !== recording.id) {
              at = clock.now();
              tapped.open(recording, session, at);
            }
            if (typeof payload === 'string') {
              const data: SocketFrame = { type, data: redactBody(payload) };
              take(recording, 'frame', session.id, at ?? clock.now(), JSON.stringify(data));
              return;
            }
            // A frame built once for many sockets: read and redacted once, kept once, with the list of its sockets.
            const known = fanOuts.get(payload);
            if (known && known.recordingId === recording.id) {
              known.connections.push(session.id);
              return;
            }
            const fanOut: FanOut = {
              recordingId: recording.id,
              text: redactBody(payload.toString('utf8')),
              connections: [session.id],
            };
            fanOuts.set(payload, fanOut);
            take(recording, 'frame', null, at ?? clock.now(), () =>
              JSON.stringify({ type, data: fanOut.text, connections: fanOut.connections }),
            );
          },
        };
        return tapped;
      },
      admitted(socket, session) {
        const tapped = socketTaps.get(socket) as RecordedSocket | undefined;
        if (!tapped) return;
        tapped.session = { id: session.id, scope: session.scope, key: scopeKey(session.scope) };
        tapped.credential = credentialOf(session);
        const early = tapped.early;
        tapped.early = undefined;
        const recording = recordingOf(session.scope);
        if (!recording) return;
        // The opening first, then what was sent before the session was known, at the times it was sent.
        tapped.open(recording, tapped.session, early?.[0]?.at ?? clock.now());
        for (const frame of early ?? []) {
          const data: SocketFrame = { type: 'receive', data: redactBody(frame.text) };
          take(recording, 'frame', session.id, frame.at, JSON.stringify(data));
        }
      },
      closed(socket, code, reason) {
        const tapped = socketTaps.get(socket) as RecordedSocket | undefined;
        const session = tapped?.session;
        if (!session) return;
        const recording = recordingOf(session.scope);
        if (!recording || tapped.openedIn !== recording.id) return;
        take(recording, 'socket_close', session.id, clock.now(), JSON.stringify({ code, reason }));
      },
    };
  }

  return {
    ready,

    async start(actor: Actor, scope: EnvironmentScope, input: StartRecordingInput): Promise<RecordingRow> {
      refuseProduction(scope);
      const row: RecordingRow = {
        id: ids.next('rec'),
        ...scopeValues(scope),
        state: 'recording',
        endReason: null,
        maxBytes: input.maxBytes,
        maxDurationMs: input.maxDurationSeconds * 1000,
        bytes: 0,
        entries: 0,
        startedAt: clock.now(),
        endedAt: null,
      };
      await store.transaction(async (tx) => {
        const [busy] = await tx
          .select({ id: environmentRecordings.id })
          .from(environmentRecordings)
          .where(inScope(environmentRecordings, scope, eq(environmentRecordings.state, 'recording')))
          .limit(1);
        if (busy)
          throw new ServiceError(
            'SERVICE_RECORDING_IN_PROGRESS',
            `${scope.environment} is being recorded already (${busy.id}): stop it first.`,
          );
        await tx.insert(environmentRecordings).values(row);
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.recording_started',
          target: { type: 'recording', id: row.id },
          environment: scope.environment,
          details: { recordingId: row.id, maxBytes: row.maxBytes, maxDurationSeconds: input.maxDurationSeconds },
        });
      });
      // This node records from now on; the others when the bus brings them the change.
      setRunning([...running.values(), row]);
      changed(row);
      return row;
    },

    async stop(actor: Actor, scope: EnvironmentScope, recordingId: string): Promise<RecordingRow> {
      const row = await find(scope, recordingId);
      return (await end(actor, row.id, 'stopped')) ?? (await find(scope, recordingId));
    },

    async list(scope: EnvironmentScope): Promise<RecordingRow[]> {
      return store.db
        .select()
        .from(environmentRecordings)
        .where(inScope(environmentRecordings, scope))
        .orderBy(desc(environmentRecordings.id));
    },

    get: find,

    /** The recording as a HAR 1.2 document: what was written so far (this node's waiting entries first). */
    async har(scope: EnvironmentScope, recordingId: string) {
      const row = await find(scope, recordingId);
      await flush();
      const rows = await store.db
        .select()
        .from(recordingEntries)
        .where(eq(recordingEntries.recordingId, row.id))
        .orderBy(asc(recordingEntries.id));
      const comment =
        `Switchboard recording ${row.id} of ${row.environment}` +
        (row.endReason ? `, ended: ${row.endReason}` : ', still recording') +
        `. Secrets are replaced by ${REDACTED}.`;
      return buildHar(rows, { name: 'Switchboard', version }, comment);
    },

    async remove(actor: Actor, scope: EnvironmentScope, recordingId: string): Promise<void> {
      const row = await find(scope, recordingId);
      const deleted = await store.transaction(async (tx) => {
        const [gone] = await tx.delete(environmentRecordings).where(eq(environmentRecordings.id, row.id)).returning();
        if (gone)
          await audit.record(tx, {
            projectId: scope.projectId,
            actor,
            action: 'environment.recording_deleted',
            target: { type: 'recording', id: row.id },
            environment: scope.environment,
            details: { recordingId: row.id },
          });
        return gone;
      });
      if (deleted) changed({ ...deleted, state: 'stopped', endReason: deleted.endReason ?? 'stopped' });
    },

    /**
     * Records a runtime REST call of a recorded environment: its request now, its answer when it is sent (the
     * route's or the error middleware's). Nothing, and no cost but a lookup, when the environment is not recorded.
     */
    captureRequest(scope: EnvironmentScope, req: Request, res: Response, credential?: RecordedCredential): void {
      const recording = recordingOf(scope);
      if (!recording) return;
      const at = clock.now();
      const started = performance.now();
      // The body as written: the routes write one string (`writeJson`), kept as it is rather than copied to bytes.
      const chunks: (string | Uint8Array)[] = [];
      const keep = (chunk: unknown) => {
        if (typeof chunk === 'string') chunks.push(chunk);
        else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
      };
      const write = res.write;
      const endResponse = res.end;
      res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
        keep(chunk);
        return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      } as Response['write'];
      res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
        if (typeof chunk !== 'function') keep(chunk);
        return (endResponse as (...args: unknown[]) => Response).call(this, chunk, ...rest);
      } as Response['end'];
      res.once('finish', () => {
        const kept: Record<string, string | string[] | number> = {};
        for (const name of RESPONSE_HEADERS_KEPT) {
          const value = res.getHeader(name);
          if (value !== undefined) kept[name] = value;
        }
        const exchange: HttpExchange = {
          method: req.method,
          url: redactUrl(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`),
          requestHeaders: redactHeaders(req.headers as IncomingHttpHeaders),
          requestBody:
            req.body === undefined || Object.keys(req.body as object).length === 0 ? '' : redactJson(req.body),
          status: res.statusCode,
          responseHeaders: redactHeaders(kept),
          responseBody: redactBody(bodyText(chunks)),
          timeMs: Math.round((performance.now() - started) * 1000) / 1000,
          credential,
        };
        take(recording, 'http', null, at, JSON.stringify(exchange));
      });
    },

    /** Records a webhook delivery attempt of a recorded environment. */
    webhookAttempt(
      scope: EnvironmentScope,
      attempt: Omit<WebhookAttemptRecord, 'requestHeaders'> & {
        requestHeaders: Record<string, string> | null;
        attemptedAt: number;
      },
    ): void {
      const recording = recordingOf(scope);
      if (!recording) return;
      const { attemptedAt, requestHeaders, ...rest } = attempt;
      const record: WebhookAttemptRecord = {
        ...rest,
        requestHeaders: redactHeaders(requestHeaders ?? {}),
        requestBody: redactBody(rest.requestBody),
        responseBody: rest.responseBody === null ? null : redactBody(rest.responseBody),
      };
      take(recording, 'webhook', null, attemptedAt, JSON.stringify(record));
    },

    realtimeRecorder: () =>
      socketRecorder<RecordedSession & { userId: string }>('realtime', (c) => ({ kind: 'chat', userId: c.userId })),
    signalingRecorder: () =>
      socketRecorder<RecordedSession & { identity: string; room: { id: string } }>('signaling', (p) => ({
        kind: 'rtc',
        roomId: p.room.id,
        identity: p.identity,
      })),

    /** Writes what waits; at shutdown, before the store closes. */
    async close(): Promise<void> {
      clearTimeout(flushTimer);
      await flush();
      closed = true;
      for (const timer of deadlines.values()) clearTimeout(timer);
      deadlines.clear();
      runningRecordings.count -= counted;
      counted = 0;
      running = new Map();
    },
  };
}

export type RecordingService = ReturnType<typeof createRecordingService>;
