/**
 * `serve`'s network settings of `/v1/rtc`: the addresses the SFU announces (`--rtc-announce-address`) and the ICE
 * servers its clients get (`--rtc-ice-servers`, TURN's credential from a file or a variable, never a flag's value).
 * Each wrong value stops the start with one line naming its flag or variable.
 */
import { readFileSync } from 'node:fs';
import { announcedAddressProblem } from '../server/media/announced-address.js';
import { type IceServer, iceServersOf } from '../server/rtc/ice-servers.js';
import { UsageError } from './errors.js';

type Setting = (
  flag: string | undefined,
  name: string,
  variable: string,
) => { value: string; source: string } | undefined;

export interface RtcNetworkFlags {
  rtcAnnounceAddress?: string;
  rtcIceServers?: string;
  rtcTurnUsername?: string;
  rtcTurnCredentialFile?: string;
}

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The TURN credential: the file's contents (trimmed) for the flag, else the variable. */
function readTurnCredential(file: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (file === undefined) return env.SWITCHBOARD_RTC_TURN_CREDENTIAL || undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new UsageError(
      `--rtc-turn-credential-file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`,
    );
  }
}

export function resolveRtcNetwork(
  flags: RtcNetworkFlags,
  env: NodeJS.ProcessEnv,
  setting: Setting,
): { announceAddresses?: string[]; iceServers?: IceServer[] } {
  const announce = setting(flags.rtcAnnounceAddress, 'rtc-announce-address', 'SWITCHBOARD_RTC_ANNOUNCE_ADDRESS');
  const announceAddresses = announce && list(announce.value);
  for (const address of announceAddresses ?? []) {
    const problem = announcedAddressProblem(address);
    if (problem) throw new UsageError(`${announce?.source}: ${problem}`);
  }
  if (announce && announceAddresses?.length === 0) throw new UsageError(`${announce.source} names no address`);

  const servers = setting(flags.rtcIceServers, 'rtc-ice-servers', 'SWITCHBOARD_RTC_ICE_SERVERS');
  const username = setting(flags.rtcTurnUsername, 'rtc-turn-username', 'SWITCHBOARD_RTC_TURN_USERNAME');
  const credential = readTurnCredential(flags.rtcTurnCredentialFile, env);
  if (Boolean(username) !== Boolean(credential))
    throw new UsageError(
      username
        ? `${username.source} needs a credential: --rtc-turn-credential-file or SWITCHBOARD_RTC_TURN_CREDENTIAL`
        : 'a TURN credential needs a username: --rtc-turn-username or SWITCHBOARD_RTC_TURN_USERNAME',
    );
  let iceServers: IceServer[] | undefined;
  if (servers || username) {
    try {
      iceServers = iceServersOf(
        list(servers?.value ?? ''),
        username && credential ? { username: username.value, credential } : undefined,
      );
    } catch (err) {
      throw new UsageError(`${servers?.source ?? '--rtc-ice-servers'}: ${(err as Error).message}`);
    }
  }
  return { ...(announceAddresses && { announceAddresses }), ...(iceServers && { iceServers }) };
}
