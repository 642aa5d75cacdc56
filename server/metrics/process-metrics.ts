import { collectDefaultMetrics, Registry } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * The process's own metrics: CPU, memory, heap spaces, event-loop lag, garbage collections, open files. They
 * describe the process, not a server, so every server of one process shows the same registry: prom-client starts a
 * GC observer and an event-loop monitor for each collection and gives no way to stop them, so a collection per
 * server would leave them running after its `close()` (tests start hundreds of servers in one process).
 */
export function processMetrics(): Registry {
  if (processRegistry) return processRegistry;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges that prom-client names like counters (promtool's lint refuses them): their sums, by type, are kept in
  // nodejs_active_handles, nodejs_active_requests and nodejs_active_resources.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
  processRegistry = registry;
  return registry;
}
