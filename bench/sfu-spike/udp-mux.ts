/**
 * Spike of one UDP port for every peer connection of the SFU, which werift 0.25.2 does not offer (each peer
 * connection binds its own sockets). It replaces werift's `UdpTransport.init` (CommonJS build only: the ESM bundle
 * inlines its own copy, and the class is not exported, hence the file path) with transports that share one socket,
 * and demultiplexes what arrives: a STUN binding request by the local ufrag of its USERNAME, which also binds the
 * sender's address to that peer connection; a STUN response to the transport that last sent to that address;
 * anything else (DTLS, SRTP) by the sender's address. This is what pion's UDPMux does for LiveKit.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RTCPeerConnection } from 'werift';

type Address = [string, number];

class MuxedTransport {
  readonly type = 'udp';
  onData: (data: Buffer, addr: Address) => void = () => {};
  closed = false;
  ufrag: string | undefined;
  constructor(private readonly mux: UdpMux) {}
  get address() {
    return { address: '0.0.0.0', port: this.mux.port, family: 'IPv4' };
  }
  get host() {
    return '0.0.0.0';
  }
  get port() {
    return this.mux.port;
  }
  get addressFamily() {
    return 4;
  }
  send = async (data: Buffer, addr?: Address) => {
    if (!addr) return;
    this.mux.lastSender.set(`${addr[0]}:${addr[1]}`, this);
    this.mux.socket.send(data, addr[1], addr[0]);
  };
  close = async () => {
    this.closed = true;
    this.mux.forget(this);
  };
}

const STUN_MAGIC_COOKIE = 0x2112a442;

/** The local ufrag of a STUN binding request's USERNAME ("local:remote"), or undefined for anything else. */
function bindingRequestUfrag(data: Buffer): string | undefined {
  if (data.length < 20 || data.readUInt16BE(0) !== 0x0001 || data.readUInt32BE(4) !== STUN_MAGIC_COOKIE) return;
  for (let offset = 20; offset + 4 <= data.length; ) {
    const type = data.readUInt16BE(offset);
    const length = data.readUInt16BE(offset + 2);
    if (type === 0x0006) return data.toString('utf8', offset + 4, offset + 4 + length).split(':')[0];
    offset += 4 + length + ((4 - (length % 4)) % 4);
  }
}

function isStun(data: Buffer): boolean {
  return data.length >= 20 && data[0] < 4 && data.readUInt32BE(4) === STUN_MAGIC_COOKIE;
}

export class UdpMux {
  /** Everything of every connection arrives here: a stall of the loop must not overflow it (Linux caps it at rmem_max). */
  readonly socket: Socket = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
  readonly lastSender = new Map<string, MuxedTransport>();
  private readonly byUfrag = new Map<string, MuxedTransport[]>();
  private readonly routes = new Map<string, string>();
  private unassigned: MuxedTransport[] = [];
  dropped = 0;

  constructor(readonly port: number) {}

  async listen(): Promise<void> {
    this.socket.bind(this.port);
    await new Promise((resolve) => this.socket.once('listening', resolve));
    this.socket.on('message', (data, rinfo) => this.receive(data, [rinfo.address, rinfo.port]));
    // werift's transports come from UdpTransport.init; from now on, ours.
    const require = createRequire(import.meta.url);
    const transportFile = join(dirname(require.resolve('werift')), '../../common/src/transport.js');
    const { UdpTransport } = require(transportFile) as { UdpTransport: { init: unknown } };
    UdpTransport.init = async () => {
      const transport = new MuxedTransport(this);
      this.unassigned.push(transport);
      return transport;
    };
  }

  /** After a peer connection gathered: its transports belong to its ICE ufrag. */
  register(pc: RTCPeerConnection): void {
    for (const iceTransport of pc.iceTransports) {
      const connection = iceTransport.connection as unknown as {
        localUsername: string;
        protocols: { transport: MuxedTransport }[];
      };
      const transports = connection.protocols.map((protocol) => protocol.transport);
      for (const transport of transports) transport.ufrag = connection.localUsername;
      this.byUfrag.set(connection.localUsername, transports);
      this.unassigned = this.unassigned.filter((transport) => !transports.includes(transport));
    }
  }

  forget(transport: MuxedTransport): void {
    if (transport.ufrag) this.byUfrag.delete(transport.ufrag);
  }

  private receive(data: Buffer, from: Address): void {
    const key = `${from[0]}:${from[1]}`;
    let ufrag = bindingRequestUfrag(data);
    if (ufrag) this.routes.set(key, ufrag);
    else if (isStun(data)) {
      const sender = this.lastSender.get(key);
      if (sender && !sender.closed) {
        sender.onData(data, from);
        return;
      }
    }
    ufrag ??= this.routes.get(key);
    const owners = ufrag ? this.byUfrag.get(ufrag) : undefined;
    if (!owners?.length) {
      this.dropped++;
      return;
    }
    const last = this.lastSender.get(key);
    (last && owners.includes(last) ? last : owners[0]).onData(data, from);
  }
}
