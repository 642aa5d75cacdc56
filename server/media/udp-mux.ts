/**
 * One UDP port for every peer connection of the media process (issue 47, step 2; docs/architecture.md, "Media: the
 * SFU"). werift binds a socket per peer connection; the mux binds one, hands each peer connection it creates
 * transports that share it (udp-mux-werift-hook.ts), and routes what arrives by these rules:
 *
 * - a STUN binding request, by the recipient's ufrag in its USERNAME: to the peer connection whose ICE agent has that
 *   local ufrag, if its MESSAGE-INTEGRITY matches that agent's password; else dropped (no answer);
 * - a STUN response, by its transaction id: to the transport that sent the request (two peer connections may ask the
 *   same STUN server at once); unknown, dropped;
 * - anything else (DTLS, SRTP/SRTCP, STUN indications), by the sender's address: to the transport that address is
 *   bound to; unbound, dropped.
 *
 * An address is bound when a transport answers a binding request from it with a success response, so only a sender
 * that knows the connection's ICE password (in the SDP) binds one: werift 0.25.2 answers a request without checking
 * its MESSAGE-INTEGRITY, and its ufrags are 4 characters, so the mux checks it. A peer connection's close forgets its
 * addresses, ufrags and transactions. As pion's UDPMux (LiveKit's) does, this assumes each remote
 * address belongs to one peer connection: browsers bind a socket per peer connection.
 */
import { createSocket, type Socket } from 'node:dgram';
import { isIP, isIPv4 } from 'node:net';
import type { Address, InterfaceAddresses, PeerConfig, RTCPeerConnection, Transport } from 'werift';
import { bindingRequestUfrag, isBindingSuccess, stunClass, transactionKey } from './udp-mux-stun.js';
import { claimTransports, holdTransportHook } from './udp-mux-werift-hook.js';
import { bindUdpSocket } from './udp-port.js';
import { werift } from './werift.js';

const { parseMessage } = werift;

/** Everything of every connection queues here while the loop is busy: 4 MiB lost nothing in the spike's stalls. */
export const DEFAULT_RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;

/** Requests a transport may have outstanding before its oldest is forgotten (ICE checks go unanswered for good). */
const TRANSACTIONS_PER_TRANSPORT = 64;

export interface UdpMuxOptions {
  /** The UDP port; 0 lets the system choose (tests). */
  port: number;
  /** The IPv4 address to bind; 0.0.0.0 (the default) for every interface. */
  host?: string;
  /** SO_RCVBUF asked for; Linux grants at most `net.core.rmem_max`. Default 4 MiB. */
  receiveBufferBytes?: number;
}

export interface UdpMuxStats {
  /** Peer connections created by the mux and not closed. */
  peerConnections: number;
  /** Remote addresses bound to a transport. */
  addresses: number;
  /** Datagrams that reached the port and no peer connection. */
  dropped: number;
}

export interface UdpMux {
  readonly port: number;
  readonly host: string;
  /** What the kernel granted (Linux reports twice the usable size). */
  readonly receiveBufferBytes: number;
  /**
   * A werift peer connection whose ICE transports all use the mux's port. `config` is werift's; the mux sets
   * `bundlePolicy: 'max-bundle'` (one ICE agent per connection), IPv4 only, and no ICE servers unless given. It refuses
   * a port range, interface addresses, IPv6, TURN servers (a relay's allocation needs a socket of its own) and
   * another bundle policy (werift's max-compat gathers an agent per m-line, all with one ufrag).
   */
  createPeerConnection(config?: Partial<PeerConfig>): RTCPeerConnection;
  stats(): UdpMuxStats;
  /** Closes the peer connections still open, then the socket. */
  close(): Promise<void>;
}

/** Binds the port; rejects with a message naming it when it is taken. */
export async function createUdpMux(options: UdpMuxOptions): Promise<UdpMux> {
  const host = options.host ?? '0.0.0.0';
  if (!isIPv4(host)) throw new TypeError(`The UDP mux binds an IPv4 address, not "${host}"`);
  const socket = createSocket({
    type: 'udp4',
    recvBufferSize: options.receiveBufferBytes ?? DEFAULT_RECEIVE_BUFFER_BYTES,
  });
  await bindUdpSocket(socket, options.port, host);
  return new SharedPort(socket, host);
}

const addressKey = (address: string, port: number) => `${address}:${port}`;

/** One peer connection created by the mux: its transports (one per local address its ICE agent gathered). */
interface Peer {
  pc?: RTCPeerConnection;
  transports: MuxedTransport[];
  ufrags: string[];
}

/** A local ufrag seen in a binding request: its peer connection and the password its requests are signed with. */
interface Credentials {
  peer: Peer;
  password: Buffer;
}

/** What werift's ICE agent sees as its UDP socket: the shared one, through the mux. */
class MuxedTransport implements Transport {
  readonly type = 'udp';
  readonly addressFamily = 4 as const;
  onData: (data: Buffer, addr: Address) => void = () => {};
  closed = false;
  /** The addresses bound to this transport and its outstanding requests, to forget them on close. */
  readonly addresses = new Set<string>();
  readonly transactions = new Set<string>();
  /** Where werift sends when it names no address (as its own UdpTransport: the last sender). */
  lastFrom: Address | undefined;

  constructor(
    private readonly mux: SharedPort,
    readonly peer: Peer,
  ) {}

  get address() {
    return this.mux.socket.address();
  }

  send = async (data: Buffer, addr?: Address): Promise<void> => {
    const to = addr ?? this.lastFrom;
    if (!to || this.closed || this.mux.closed) return;
    this.mux.sent(this, data, to);
    if (isIP(to[0])) {
      this.mux.socket.send(data, to[1], to[0]);
      return;
    }
    // A name (not an address) needs the callback to learn of a failed lookup, as werift's own transport does.
    await new Promise<void>((resolve, reject) =>
      this.mux.socket.send(data, to[1], to[0], (error) => (error ? reject(error) : resolve())),
    );
  };

  close = async (): Promise<void> => {
    if (this.closed) return;
    this.closed = true;
    this.mux.forgetTransport(this);
  };
}

class SharedPort implements UdpMux {
  readonly port: number;
  readonly receiveBufferBytes: number;
  closed = false;
  private readonly peers = new Set<Peer>();
  private readonly byUfrag = new Map<string, Credentials>();
  private readonly byAddress = new Map<string, MuxedTransport>();
  private readonly byTransaction = new Map<string, MuxedTransport>();
  private dropped = 0;
  private readonly releaseHook = holdTransportHook();

  constructor(
    readonly socket: Socket,
    readonly host: string,
  ) {
    this.port = socket.address().port;
    this.receiveBufferBytes = socket.getRecvBufferSize();
    socket.on('message', (data, from) => this.receive(data, [from.address, from.port]));
    // Once bound, a UDP socket's errors concern one datagram (werift retransmits); unheard, one would end the process.
    socket.on('error', () => {});
  }

  createPeerConnection(config: Partial<PeerConfig> = {}): RTCPeerConnection {
    refuseUnmuxable(config);
    const peer: Peer = { transports: [], ufrags: [] };
    // Its identity routes this connection's transports to the mux; its value binds to the mux's address.
    const interfaceAddresses: InterfaceAddresses = { udp4: this.host };
    claimTransports(interfaceAddresses, async (socketType) => this.newTransport(peer, socketType));
    // werift announces no loopback address of its own; bound to one address, the mux announces it.
    const announced = this.host === '0.0.0.0' ? [] : [this.host];
    const pc = new werift.RTCPeerConnection({
      iceServers: [],
      ...config,
      iceAdditionalHostAddresses: [...new Set([...announced, ...(config.iceAdditionalHostAddresses ?? [])])],
      bundlePolicy: 'max-bundle',
      iceUseIpv6: false,
      iceInterfaceAddresses: interfaceAddresses,
    });
    peer.pc = pc;
    this.peers.add(peer);
    pc.signalingStateChange.subscribe((state) => {
      if (state === 'closed') this.forgetPeer(peer);
    });
    return pc;
  }

  stats(): UdpMuxStats {
    return { peerConnections: this.peers.size, addresses: this.byAddress.size, dropped: this.dropped };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.allSettled([...this.peers].map((peer) => peer.pc?.close()));
    this.closed = true;
    this.releaseHook();
    await new Promise<void>((resolve) => this.socket.close(resolve));
  }

  private newTransport(peer: Peer, socketType: string): MuxedTransport {
    // werift skips a local address whose transport fails; the mux is IPv4 only.
    if (socketType !== 'udp4') throw new Error(`The UDP mux has no ${socketType} socket`);
    if (this.closed) throw new Error('The UDP mux is closed');
    const transport = new MuxedTransport(this, peer);
    peer.transports.push(transport);
    return transport;
  }

  /** What a transport sends teaches the mux where answers go. */
  sent(transport: MuxedTransport, data: Buffer, to: Address): void {
    const kind = stunClass(data);
    if (kind === 'request') {
      const key = transactionKey(data);
      this.byTransaction.set(key, transport);
      transport.transactions.add(key);
      if (transport.transactions.size > TRANSACTIONS_PER_TRANSPORT) {
        const [oldest] = transport.transactions;
        transport.transactions.delete(oldest);
        if (this.byTransaction.get(oldest) === transport) this.byTransaction.delete(oldest);
      }
    } else if (kind === 'success' && isBindingSuccess(data)) {
      const key = addressKey(to[0], to[1]);
      const previous = this.byAddress.get(key);
      if (previous !== transport) previous?.addresses.delete(key);
      this.byAddress.set(key, transport);
      transport.addresses.add(key);
    }
  }

  private receive(data: Buffer, from: Address): void {
    const target = this.route(data, from);
    if (!target) {
      this.dropped++;
      return;
    }
    target.lastFrom = from;
    try {
      target.onData(data, from);
    } catch {
      // werift's own UdpTransport swallows a throwing handler too: one bad datagram must not end the process.
    }
  }

  private route(data: Buffer, from: Address): MuxedTransport | undefined {
    const kind = stunClass(data);
    if (kind === 'request') {
      const ufrag = bindingRequestUfrag(data);
      if (ufrag === undefined) return this.byAddress.get(addressKey(from[0], from[1]));
      const credentials = this.credentialsOf(ufrag);
      if (!credentials || !parseMessage(data, credentials.password)) return undefined;
      const owners = credentials.peer.transports;
      const bound = this.byAddress.get(addressKey(from[0], from[1]));
      return bound && owners.includes(bound) ? bound : owners[0];
    }
    if (kind === 'success' || kind === 'error') {
      const key = transactionKey(data);
      const requester = this.byTransaction.get(key);
      if (requester) {
        this.byTransaction.delete(key);
        requester.transactions.delete(key);
      }
      return requester;
    }
    return this.byAddress.get(addressKey(from[0], from[1]));
  }

  /**
   * The peer connection whose ICE agent has the local `ufrag`, and its password. Looked up on first use: werift makes
   * the ufrag with the agent, and an ICE restart makes a new one (the old stays routed until the connection closes).
   * An unknown ufrag costs a scan of the open connections, one string comparison each.
   */
  private credentialsOf(ufrag: string): Credentials | undefined {
    const known = this.byUfrag.get(ufrag);
    if (known) return known;
    for (const peer of this.peers) {
      const agent = peer.pc?.iceTransports.find((ice) => ice.connection.localUsername === ufrag)?.connection;
      if (!agent) continue;
      const credentials = { peer, password: Buffer.from(agent.localPassword, 'utf8') };
      this.byUfrag.set(ufrag, credentials);
      peer.ufrags.push(ufrag);
      return credentials;
    }
    return undefined;
  }

  forgetTransport(transport: MuxedTransport): void {
    for (const key of transport.addresses) {
      if (this.byAddress.get(key) === transport) this.byAddress.delete(key);
    }
    for (const key of transport.transactions) {
      if (this.byTransaction.get(key) === transport) this.byTransaction.delete(key);
    }
    transport.addresses.clear();
    transport.transactions.clear();
    const { transports } = transport.peer;
    const index = transports.indexOf(transport);
    if (index >= 0) transports.splice(index, 1);
  }

  private forgetPeer(peer: Peer): void {
    if (!this.peers.delete(peer)) return;
    for (const ufrag of peer.ufrags) this.byUfrag.delete(ufrag);
    // werift closes the transports a little later; from now on nothing reaches them.
    for (const transport of [...peer.transports]) this.forgetTransport(transport);
  }
}

function refuseUnmuxable(config: Partial<PeerConfig>): void {
  const refusals = [
    config.bundlePolicy && config.bundlePolicy !== 'max-bundle' && `bundlePolicy "${config.bundlePolicy}"`,
    config.icePortRange && 'icePortRange',
    config.iceInterfaceAddresses && 'iceInterfaceAddresses',
    config.iceUseIpv6 && 'iceUseIpv6',
    config.iceServers?.some((server) => [server.urls].flat().some((url) => /^turns?:/i.test(url))) && 'TURN servers',
  ].filter(Boolean);
  if (refusals.length) {
    throw new TypeError(
      `A peer connection on the UDP mux cannot have ${refusals.join(', ')} (see server/media/udp-mux.ts)`,
    );
  }
}
