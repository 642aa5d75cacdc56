import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { DeploymentMode } from '../context.js';

/**
 * The Content Security Policy of every HTML page the server serves (the dashboard, `/docs`): scripts,
 * fonts, images and connections from this server only (WebSockets to it included), styles from it plus the inline
 * `style` attributes that component libraries and the API reference set, no plugins, no framing by anyone.
 */
export const PAGE_CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/**
 * Helmet on HTML pages only: the API's JSON and the attachment bytes are read cross-origin by browser apps, which
 * `Cross-Origin-Resource-Policy: same-origin` would break. HSTS only in production mode and only on a request that
 * came over TLS (directly, or through a proxy trusted with `--trust-proxy`): sent over plain HTTP on localhost it
 * would make the browser refuse the server until it expires.
 */
export function pageHeaders(mode: DeploymentMode): RequestHandler {
  const common = {
    contentSecurityPolicy: { useDefaults: false, directives: PAGE_CSP_DIRECTIVES },
    referrerPolicy: { policy: 'no-referrer' as const },
    xFrameOptions: { action: 'deny' as const },
  };
  const plain = helmet({ ...common, strictTransportSecurity: false });
  const overTls = helmet({ ...common, strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false } });
  return (req, res, next) => (mode === 'production' && req.secure ? overTls : plain)(req, res, next);
}
