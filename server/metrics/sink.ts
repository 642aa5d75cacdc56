/**
 * What the server's parts tell its Prometheus metrics (server/metrics/prometheus.ts) beyond the events they emit:
 * `infra.metrics`, undefined when the server serves no metrics (`--metrics-port` not given), so that they cost
 * nothing then. Counts only, no ids.
 */
export interface MetricSink {
  /** A WebSocket was closed with 1013 at a limit: the server's (`--max-websockets`) or its environment's. */
  webSocketRefused(limit: 'server' | 'environment'): void;
  /** Realtime frames written to sockets (a frame may carry several events). */
  realtimeFramesSent(frames: number): void;
}
