/**
 * werift, loaded once for the whole media process: its CommonJS build, with require. The bundled server leaves it in
 * node_modules (an `import` would inline werift's ES module build into dist/media-process.mjs), and the two builds
 * hold separate copies of every class: the UDP mux's hook (udp-mux-werift-hook.ts) replaces `UdpTransport.init` of
 * the build whose `RTCPeerConnection` the mux constructs, so every module of the media process takes werift from here.
 * Its ICE agents ask no STUN server unless given one (werift-default-stun.ts).
 */
import { createRequire } from 'node:module';
import { withoutDefaultStunServer } from './werift-default-stun.js';

export const werift = createRequire(import.meta.url)('werift') as typeof import('werift');
withoutDefaultStunServer(werift);
