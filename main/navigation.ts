/**
 * Where the window may go. Pure, so it is tested without Electron: the window stays on the embedded
 * server's origin; web and mail links leave for the system browser; anything else goes nowhere.
 */
export type NavigationDecision = 'allow' | 'open-externally' | 'refuse';

const EXTERNAL_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

export function isSameOrigin(url: string, origin: string): boolean {
  return parse(url)?.origin === origin;
}

/** For a navigation of the window to `target`, or a request to open it in a new window. */
export function decideNavigation(
  target: string,
  appOrigin: string,
  kind: 'navigate' | 'new-window',
): NavigationDecision {
  const url = parse(target);
  if (!url) return 'refuse';
  if (kind === 'navigate' && url.origin === appOrigin) return 'allow';
  return EXTERNAL_PROTOCOLS.has(url.protocol) ? 'open-externally' : 'refuse';
}
