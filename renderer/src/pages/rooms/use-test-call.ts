import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { SHOWN_INLINE } from '../../api/query-client';
import { type Environment, type PeerStats, RtcClient, type SignalingParticipant } from '../../sdk';
import { useClient } from '../../session/session-context';

/** How often the remote tiles' figures (frames decoded …) are read from the peer connections. */
const STATS_INTERVAL_MS = 1000;

export interface RemoteParticipant {
  participant: SignalingParticipant;
  /** Their camera and microphone as received, once a track arrived. */
  stream: MediaStream | null;
  /** The peer connection's state: connecting, connected, failed … */
  state: string;
  stats: PeerStats | null;
}

export interface JoinRequest {
  identity: string;
  camera: boolean;
  microphone: boolean;
}

type Remotes = Map<string, RemoteParticipant>;

/** The browser gave no camera or microphone: what to do about it, in the words the join form shows. */
export class MediaUnavailableError extends Error {
  override readonly name = 'MediaUnavailableError';
}

/** getUserMedia's refusals that the user can act on, said as what to do; any other error as it is. */
async function openMedia(constraints: MediaStreamConstraints): Promise<MediaStream> {
  try {
    return await navigator.mediaDevices.getUserMedia(constraints);
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    if (name === 'NotFoundError' || name === 'OverconstrainedError')
      throw new MediaUnavailableError(
        'No camera or microphone found: untick Camera and Microphone to join without them.',
        { cause: error },
      );
    if (name === 'NotAllowedError')
      throw new MediaUnavailableError(
        'The browser did not allow the camera or microphone: allow them for this page, or untick Camera and Microphone to join without them.',
        { cause: error },
      );
    if (name === 'NotReadableError')
      throw new MediaUnavailableError(
        'The camera or microphone is in use by another program: close it, or untick Camera and Microphone to join without them.',
        { cause: error },
      );
    throw error;
  }
}

/** The remotes with one of them changed (the same map when it has left meanwhile). */
function changed(before: Remotes, identity: string, change: (remote: RemoteParticipant) => RemoteParticipant): Remotes {
  const remote = before.get(identity);
  return remote ? new Map(before).set(identity, change(remote)) : before;
}

/**
 * The dashboard's place in a room: mints a token for an identity with the session, opens the camera and microphone,
 * joins with the SDK's RtcClient, and keeps the remote participants, their media and their figures as state.
 * Leaving the page leaves the call and releases the devices.
 */
export function useTestCall(projectId: string, environment: Environment, roomId: string) {
  const client = useClient();
  const [call, setCall] = useState<RtcClient<MediaStream> | null>(null);
  const [local, setLocal] = useState<MediaStream | null>(null);
  const [remotes, setRemotes] = useState<Remotes>(new Map());
  const [ended, setEnded] = useState<{ code: number; reason: string } | null>(null);
  const [enabled, setEnabledState] = useState({ audio: true, video: true });
  const current = useRef<{ call: RtcClient<MediaStream> | null; local: MediaStream | null }>({
    call: null,
    local: null,
  });

  const update = (identity: string, change: (remote: RemoteParticipant) => RemoteParticipant) =>
    setRemotes((before) => changed(before, identity, change));

  const join = useMutation({
    ...SHOWN_INLINE,
    mutationFn: async ({ identity, camera, microphone }: JoinRequest) => {
      const media = camera || microphone ? await openMedia({ video: camera, audio: microphone }) : undefined;
      try {
        const { token } = await client.rooms.createRtcToken(projectId, roomId, { identity }, { environment });
        return { joined: await RtcClient.join({ baseUrl: client.baseUrl, token, media }), media: media ?? null };
      } catch (error) {
        for (const track of media?.getTracks() ?? []) track.stop();
        throw error;
      }
    },
    onSuccess: ({ joined, media }) => {
      current.current = { call: joined, local: media };
      const remote = (participant: SignalingParticipant): RemoteParticipant => ({
        participant,
        stream: null,
        state: 'new',
        stats: null,
      });
      setRemotes(new Map(joined.participants.map((p) => [p.identity, remote(p)])));
      joined.on('participantJoined', (p) => setRemotes((before) => new Map(before).set(p.identity, remote(p))));
      joined.on('participantLeft', ({ identity }) =>
        setRemotes((before) => {
          const after = new Map(before);
          after.delete(identity);
          return after;
        }),
      );
      joined.on('track', ({ identity, track, stream }) =>
        update(identity, (r) => {
          const received = stream ?? r.stream ?? new MediaStream();
          if (!received.getTracks().includes(track)) received.addTrack(track);
          return { ...r, stream: received };
        }),
      );
      joined.on('peerState', ({ identity, state }) => update(identity, (r) => ({ ...r, state })));
      joined.on('closed', (close) => {
        for (const track of media?.getTracks() ?? []) track.stop();
        current.current = { call: null, local: null };
        setCall(null);
        setLocal(null);
        setRemotes(new Map());
        setEnded(close);
      });
      setEnded(null);
      setEnabledState({ audio: true, video: true });
      setLocal(media);
      setCall(joined);
    },
  });

  // The figures of each remote: read locally from the peer connections (nothing is asked of the server).
  useEffect(() => {
    if (!call) return;
    const timer = setInterval(async () => {
      const all = await call.stats();
      setRemotes((before) =>
        all.reduce((after, stats) => changed(after, stats.identity, (r) => ({ ...r, stats })), before),
      );
    }, STATS_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [call]);

  useEffect(
    () => () => {
      current.current.call?.leave();
      for (const track of current.current.local?.getTracks() ?? []) track.stop();
    },
    [],
  );

  return {
    join,
    call,
    local,
    remotes: [...remotes.values()],
    ended,
    enabled,
    setEnabled(kind: 'audio' | 'video', on: boolean) {
      call?.setEnabled(kind, on);
      setEnabledState((before) => ({ ...before, [kind]: on }));
    },
    leave: () => call?.leave(),
  };
}
