import { type AnyColumn, and, count, gte, isNotNull, sql } from 'drizzle-orm';
import { connectionLog } from '../../db/schema/observability.js';
import { type EnvironmentScope, inScope } from '../../db/scope.js';
import type { Store } from '../../db/store.js';

/** The window of diagnostics' media totals: connections with media through the server that ended in it. */
export const MEDIA_TOTALS_WINDOW_MS = 60 * 60_000;

/**
 * What the environment's media through the server carried (`--rtc-media sfu`): the sums of the connection log's media
 * columns over the signaling connections that ended since `since` (a connection's are written when it ends).
 */
export async function mediaTotalsSince(db: Store['db'], scope: EnvironmentScope, since: number) {
  const sum = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);
  const [totals] = await db
    .select({
      connections: count(),
      bytesIn: sum(connectionLog.mediaBytesIn),
      bytesOut: sum(connectionLog.mediaBytesOut),
      packetsLostIn: sum(connectionLog.mediaPacketsLostIn),
      packetsLostOut: sum(connectionLog.mediaPacketsLostOut),
    })
    .from(connectionLog)
    .where(
      inScope(
        connectionLog,
        scope,
        and(isNotNull(connectionLog.mediaBytesIn), gte(connectionLog.disconnectedAt, since)),
      ),
    );
  return totals ?? { connections: 0, bytesIn: 0, bytesOut: 0, packetsLostIn: 0, packetsLostOut: 0 };
}
