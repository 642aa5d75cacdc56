/**
 * `startServer`'s `rtc` network options checked at start, before anything opens: an address or an ICE server that no
 * client could use fails the start with what is wrong, not the first call.
 */
import { announcedAddressProblem } from '../media/announced-address.js';
import { type IceServer, iceServerUrlProblem, isTurnUrl } from './ice-servers.js';

export interface RtcNetworkOptions {
  announceAddresses?: readonly string[];
  iceServers?: readonly IceServer[];
}

/** Throws an Error naming the first option that is wrong. */
export function checkRtcNetworkOptions({ announceAddresses = [], iceServers = [] }: RtcNetworkOptions): void {
  for (const address of announceAddresses) {
    const problem = announcedAddressProblem(address);
    if (problem) throw new Error(`rtc.announceAddresses: ${problem}`);
  }
  for (const server of iceServers) {
    if (server.urls.length === 0) throw new Error('rtc.iceServers: a server without URLs');
    for (const url of server.urls) {
      const problem = iceServerUrlProblem(url);
      if (problem) throw new Error(`rtc.iceServers: ${problem}`);
    }
    if (server.urls.some(isTurnUrl) && (!server.username || !server.credential))
      throw new Error(`rtc.iceServers: ${server.urls.find(isTurnUrl)} needs a username and a credential`);
  }
}
