/**
 * werift (0.25.2) asks a public STUN host, stun.l.google.com:19302, for a reflexive candidate of every IPv4 address it
 * gathers whenever its configuration names no STUN server, `iceServers: []` included: its ICE agent falls back to that
 * default. Nothing may contact the internet (and where a resolver answers but the host is unreachable, each gathering
 * would wait for werift's 5 s STUN timeout), so an agent configured with no STUN server asks none.
 */
type Werift = typeof import('werift');

/** What the agent's prototype is known to have (werift's `Connection`, its ICE agent; the method is private). */
interface AgentPrototype {
  applyStunTurnServersFromOptions(this: AgentWithServers): void;
}
interface AgentWithServers {
  options: { stunServer?: unknown };
  stunServer?: unknown;
}

const patched = new WeakSet<object>();

/** Makes the ICE agents of this build of werift ask no STUN server unless one is configured. Idempotent. */
export function withoutDefaultStunServer(werift: Werift): void {
  const prototype = werift.Connection.prototype as unknown as AgentPrototype;
  if (patched.has(prototype)) return;
  const derive = prototype.applyStunTurnServersFromOptions;
  if (typeof derive !== 'function')
    throw new Error(
      'werift changed: its ICE agent has no applyStunTurnServersFromOptions (see werift-default-stun.ts)',
    );
  prototype.applyStunTurnServersFromOptions = function (this: AgentWithServers) {
    derive.call(this);
    if (!this.options.stunServer) this.stunServer = undefined;
  };
  patched.add(prototype);
}
