/**
 * The media processes' UDP ports: a port of its own for each (`--rtc-udp-port` the first, the next ones consecutive
 * after it), since a process's UDP mux routes only its own peer connections' datagrams (docs/deployment.md). Checked
 * at the server's start, though a process binds its port only when a room first needs it: a port in use stops
 * `serve` there, with the message naming it, rather than failing a call later.
 */
import { checkUdpPortFree } from './udp-port.js';

/** More than one a core gains nothing; the bound keeps a mistyped count from asking for thousands of ports. */
export const MAX_MEDIA_PROCESSES = 64;

/** The ports of `processes` media processes from `first`; none to check when the system picks them (0). */
export function mediaProcessPorts(first: number, processes: number): number[] {
  if (!Number.isInteger(processes) || processes < 1 || processes > MAX_MEDIA_PROCESSES)
    throw new Error(`rtc.processes must be a whole number from 1 to ${MAX_MEDIA_PROCESSES}, not ${processes}`);
  if (first === 0) return [];
  const last = first + processes - 1;
  if (last > 65535)
    throw new Error(`${processes} media processes need UDP ports ${first}–${last}: past 65535, choose a lower port`);
  return Array.from({ length: processes }, (_, index) => first + index);
}

export async function checkMediaPortsFree(first: number, processes = 1): Promise<void> {
  for (const port of mediaProcessPorts(first, processes)) await checkUdpPortFree(port, '0.0.0.0');
}
