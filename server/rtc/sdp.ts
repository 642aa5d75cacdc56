export type MediaKind = 'audio' | 'video' | 'application';

const DIRECTIONS = new Set(['sendrecv', 'sendonly', 'recvonly', 'inactive']);

/**
 * Which kinds of media a session description offers to send: for audio and video, an m-section
 * that is not disabled (port 0) and whose direction is sendrecv or sendonly (the default when no
 * direction is given); for `application`, any enabled data-channel section.
 */
export function sentMediaKinds(sdp: string): Set<MediaKind> {
  const sent = new Set<MediaKind>();
  const lines = sdp.split(/\r?\n/);
  let sessionDirection = 'sendrecv';
  let section: { kind: string; enabled: boolean; direction?: string } | undefined;
  const close = () => {
    if (!section?.enabled) return;
    const direction = section.direction ?? sessionDirection;
    if (section.kind === 'application') sent.add('application');
    else if (
      (section.kind === 'audio' || section.kind === 'video') &&
      (direction === 'sendrecv' || direction === 'sendonly')
    ) {
      sent.add(section.kind);
    }
  };
  for (const line of lines) {
    if (line.startsWith('m=')) {
      close();
      const [kind, port] = line.slice(2).split(' ');
      section = { kind: kind ?? '', enabled: port !== '0' };
    } else if (line.startsWith('a=')) {
      const attribute = line.slice(2).trim();
      if (DIRECTIONS.has(attribute)) {
        if (section) section.direction = attribute;
        else sessionDirection = attribute;
      }
    }
  }
  close();
  return sent;
}
