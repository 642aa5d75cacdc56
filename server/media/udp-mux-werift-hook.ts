/**
 * The one place the mux reaches into werift (0.25.2, pinned exactly): werift has no option for a shared socket.
 * Each ICE agent gets its UDP sockets from the static `UdpTransport.init(type, {portRange, interfaceAddresses})`, so
 * that function is replaced while a mux is open, and restored when the last one closes.
 *
 * The replacement is scoped by identity: werift hands the `iceInterfaceAddresses` object of a peer connection's
 * configuration down to `init` unchanged (no copy on the way), so each peer connection the mux creates gets an object
 * of its own, registered here with the function that makes its transports. Any other `init` call (a peer connection
 * made elsewhere in the process, the test's clients) goes to werift's own, untouched.
 *
 * The class comes from the same build as the RTCPeerConnection the mux constructs (werift.ts: the CommonJS one, left
 * in node_modules by the bundle). werift's ES module build has a copy of its own, which this does not touch.
 */
import type { InterfaceAddresses, Transport } from 'werift';
import { werift } from './werift.js';

const { UdpTransport } = werift;

export type TransportFactory = (socketType: string) => Promise<Transport>;

type Init = typeof werift.UdpTransport.init;

const factories = new WeakMap<InterfaceAddresses, TransportFactory>();
let werifts: Init | undefined;
let holders = 0;

function init(this: typeof werift.UdpTransport, ...[type, options]: Parameters<Init>): ReturnType<Init> {
  const factory = options?.interfaceAddresses && factories.get(options.interfaceAddresses);
  // A muxed transport does what werift asks of a UdpTransport (werift's `Transport`), not its private fields.
  if (factory) return factory(type) as unknown as ReturnType<Init>;
  if (!werifts) throw new Error('werift UdpTransport.init called after the UDP mux hook was removed');
  return werifts.call(this, type, options);
}

/** Installs the replacement (once for every open mux); the function returned removes this holder's share. */
export function holdTransportHook(): () => void {
  if (holders === 0) {
    werifts = UdpTransport.init;
    UdpTransport.init = init;
  }
  holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
    if (holders === 0 && werifts) {
      UdpTransport.init = werifts;
      werifts = undefined;
    }
  };
}

/** From now on, the transports of the peer connection configured with `addresses` come from `factory`. */
export function claimTransports(addresses: InterfaceAddresses, factory: TransportFactory): void {
  factories.set(addresses, factory);
}
