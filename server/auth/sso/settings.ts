import type { DeploymentMode } from '../../context.js';

/** An OpenID Connect provider the dashboard and the CLI sign in with (docs/security.md#single-sign-on). */
export interface SingleSignOnSettings {
  /** The provider's issuer URL, whose `/.well-known/openid-configuration` describes it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's name on the sign-in button ("Sign in with …"); default the issuer's host. */
  name?: string;
  /** Email domains whose addresses may sign in (`example.com`), lower-case; empty or absent: any. */
  allowedDomains?: readonly string[];
  /**
   * Where browsers reach this server (`https://switchboard.example.com`), which makes the redirect URI registered
   * at the provider: `<publicUrl>/auth/sso/callback`. Default: the scheme and host of the request (behind a proxy,
   * with `--trust-proxy`, the proxy's).
   */
  publicUrl?: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export const isLoopbackUrl = (url: URL) => LOOPBACK_HOSTS.has(url.hostname);

/** The settings checked, with domains lower-cased and the name filled in; throws a readable error otherwise. */
export function resolveSingleSignOn(mode: DeploymentMode, options: SingleSignOnSettings): SingleSignOnSettings {
  let issuer: URL;
  try {
    issuer = new URL(options.issuer);
  } catch {
    throw new RangeError(`the single sign-on issuer "${options.issuer}" is not a URL`);
  }
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && (mode === 'local' || isLoopbackUrl(issuer))))
    throw new RangeError(
      `the single sign-on issuer ${options.issuer} must be an https:// URL (http:// only in local mode or on loopback)`,
    );
  if (!options.clientId) throw new RangeError('single sign-on needs the client id the provider gave this server');
  if (!options.clientSecret)
    throw new RangeError('single sign-on needs the client secret the provider gave this server');
  if (options.publicUrl !== undefined) {
    const url = new URL(options.publicUrl);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
      throw new RangeError(`the public URL ${options.publicUrl} must be http(s)://host[:port][/path]`);
  }
  return {
    ...options,
    name: options.name?.trim() || issuer.host,
    allowedDomains: (options.allowedDomains ?? []).map((domain) => domain.trim().toLowerCase().replace(/^@/, '')),
    ...(options.publicUrl !== undefined && { publicUrl: options.publicUrl.replace(/\/+$/, '') }),
  };
}
