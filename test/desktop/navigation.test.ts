import { describe, expect, it } from 'vitest';
import { decideNavigation, isSameOrigin } from '../../main/navigation.js';

const ORIGIN = 'http://127.0.0.1:53124';

describe('desktop navigation policy', () => {
  it('lets the window move within the server origin', () => {
    expect(decideNavigation(`${ORIGIN}/docs`, ORIGIN, 'navigate')).toBe('allow');
    expect(decideNavigation(`${ORIGIN}/`, ORIGIN, 'navigate')).toBe('allow');
  });

  it('sends web and mail links to the system browser instead', () => {
    expect(decideNavigation('https://example.com/', ORIGIN, 'navigate')).toBe('open-externally');
    expect(decideNavigation('mailto:someone@example.com', ORIGIN, 'navigate')).toBe('open-externally');
    // Same host, another port: another origin.
    expect(decideNavigation('http://127.0.0.1:9999/', ORIGIN, 'navigate')).toBe('open-externally');
    // New windows never open inside the app, even on the server's own pages.
    expect(decideNavigation(`${ORIGIN}/docs`, ORIGIN, 'new-window')).toBe('open-externally');
  });

  it('refuses other schemes and garbage outright', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'not a url']) {
      expect(decideNavigation(url, ORIGIN, 'navigate')).toBe('refuse');
      expect(decideNavigation(url, ORIGIN, 'new-window')).toBe('refuse');
    }
  });

  it('compares origins, not prefixes', () => {
    expect(isSameOrigin(`${ORIGIN}/x`, ORIGIN)).toBe(true);
    expect(isSameOrigin('http://127.0.0.1:531240/x', ORIGIN)).toBe(false);
    expect(isSameOrigin(`${ORIGIN}.evil.example/x`, ORIGIN)).toBe(false);
    expect(isSameOrigin('', ORIGIN)).toBe(false);
  });
});
