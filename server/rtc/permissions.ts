/** What an RTC token allows its holder in the room; `publish` is the master switch for media. */
export interface RtcPermissions {
  publish: boolean;
  publishAudio: boolean;
  publishVideo: boolean;
  publishData: boolean;
  subscribe: boolean;
}

export type RequestedPermissions = Partial<RtcPermissions>;

/**
 * LiveKit's defaults: a token may publish, publish data and subscribe unless it says otherwise;
 * audio and video follow `publish` unless set. (Contradictions, such as publishVideo without publish,
 * are refused by the request schema before this runs.)
 */
export function resolvePermissions(requested: RequestedPermissions): RtcPermissions {
  const publish = requested.publish ?? true;
  return {
    publish,
    publishAudio: requested.publishAudio ?? publish,
    publishVideo: requested.publishVideo ?? publish,
    publishData: requested.publishData ?? true,
    subscribe: requested.subscribe ?? true,
  };
}

export const canSendAudio = (p: RtcPermissions) => p.publish && p.publishAudio;
export const canSendVideo = (p: RtcPermissions) => p.publish && p.publishVideo;
