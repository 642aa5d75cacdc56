import { type Request, type Response, Router } from 'express';
import { FLOW_TTL_MS } from './flow.js';
import { type Navigation, parseReturnTarget, type SingleSignOnService } from './service.js';

const FLOW_COOKIE = 'switchboard_sso';

/** The flow cookie of the request, if it has one. */
function flowCookie(req: Request): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === FLOW_COOKIE) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * Sets or clears the flow cookie, then redirects. The cookie is sent back only to these two addresses, to no
 * script, and on the provider's redirect back (a top-level navigation: `SameSite=Lax` lets it through).
 */
function navigate(req: Request, res: Response, { location, flowCookie }: Navigation): void {
  if (flowCookie !== undefined) {
    res.cookie(FLOW_COOKIE, flowCookie ?? '', {
      path: '/auth/sso',
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      maxAge: flowCookie === null ? 0 : FLOW_TTL_MS,
    });
  }
  res.set('Cache-Control', 'no-store');
  res.redirect(303, location);
}

/** The scheme and host the browser came to (behind a proxy trusted with `--trust-proxy`, the proxy's). */
const originOf = (req: Request) => `${req.protocol}://${req.get('host')}`;

/**
 * The two addresses a browser visits during a single sign-on, outside `/v1` because they answer with redirects, not
 * JSON: `start` (sends the browser to the provider) and `callback` (the redirect URI registered at the provider).
 */
export function singleSignOnPages(service: SingleSignOnService): Router {
  const router = Router();
  router.get('/start', async (req, res) => {
    navigate(req, res, await service.start(parseReturnTarget(req.query), originOf(req)));
  });
  router.get('/callback', async (req, res) => {
    navigate(req, res, await service.finish(new URL(req.originalUrl, originOf(req)), flowCookie(req)));
  });
  return router;
}
