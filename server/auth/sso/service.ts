import { timingSafeEqual } from 'node:crypto';
import type { Infrastructure } from '../../context.js';
import { unauthenticated, validationFailed } from '../../errors.js';
import type { AuthService } from '../service.js';
import { challengeOf, createFlowTokens, type Flow, type ReturnTarget } from './flow.js';
import { createOidcClient, ProviderAnswerError } from './provider.js';
import type { SsoRefusal } from './schemas.js';

/** Where the browser goes next: the provider, or back to the dashboard or the CLI. */
export interface Navigation {
  location: string;
  /** The flow cookie to set (at the start), or null to clear it (at the end). */
  flowCookie?: string | null;
}

const CLI_TARGET = /^http:\/\/(127\.0\.0\.1|\[::1\]):\d{1,5}(\/[\w\-./]*)?$/;

/**
 * The start's `redirect` (a dashboard path) or `cli` (a loopback URL, with the S256 `challenge` of a verifier the
 * CLI keeps). Loopback IP literals only, as RFC 8252 advises: a name could resolve elsewhere.
 */
export function parseReturnTarget(query: Record<string, unknown>): ReturnTarget {
  const { redirect, cli, challenge } = query;
  if (cli !== undefined) {
    if (typeof cli !== 'string' || !CLI_TARGET.test(cli))
      throw validationFailed('cli: must be a loopback URL such as http://127.0.0.1:53682/callback');
    if (typeof challenge !== 'string' || !/^[\w-]{43}$/.test(challenge))
      throw validationFailed('challenge: the CLI sends the S256 challenge (43 base64url characters) of its verifier');
    return { kind: 'cli', url: cli, challenge };
  }
  const path = typeof redirect === 'string' ? redirect : '/';
  // A path of the dashboard only: never another site (`//host`, `/\host`).
  const safe = path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');
  return { kind: 'dashboard', path: safe ? path : '/' };
}

/** The address `target` is sent to with `params`. */
function returnTo(target: ReturnTarget, params: Record<string, string>): string {
  if (target.kind === 'cli') {
    const url = new URL(target.url);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.href;
  }
  return `/sign-in/sso?${new URLSearchParams({ ...params, redirect: target.path })}`;
}

/**
 * Single sign-on with an OpenID Connect provider: the authorization code flow with PKCE, state and nonce, kept in a
 * signed cookie of the browser for ten minutes. At its end the browser returns to the dashboard or the CLI with a
 * grant: a token for a pending session, redeemed once (`POST /v1/auth/sso/redeem`) for the session's token, so that
 * no session token ever travels in a URL. A CLI's grant also needs the verifier of the challenge it started with.
 */
export function createSingleSignOnService(infra: Infrastructure, auth: AuthService) {
  const settings = infra.security.singleSignOn;
  const flows = createFlowTokens(infra.keys, infra.clock);
  const client = settings && createOidcClient(settings);
  const refuse = (target: ReturnTarget, reason: SsoRefusal, detail?: string): Navigation => {
    infra.logger.warn({ reason, detail }, `single sign-on refused: ${reason}${detail ? ` (${detail})` : ''}`);
    return {
      location: returnTo(target, { error: reason, ...(detail && /^[\w.-]{1,64}$/.test(detail) && { detail }) }),
      flowCookie: null,
    };
  };

  return {
    /** Sends the browser to the provider; `origin`: the scheme and host the request came to. */
    async start(target: ReturnTarget, origin: string): Promise<Navigation> {
      if (!settings || !client) throw validationFailed('Single sign-on is not configured on this server.');
      const checks = client.newChecks();
      const redirectUri = `${settings.publicUrl ?? origin}/auth/sso/callback`;
      let location: URL;
      try {
        location = await client.authorizationUrl(redirectUri, checks);
      } catch (err) {
        if (err instanceof ProviderAnswerError) return refuse(target, err.reason);
        throw err;
      }
      const flow: Flow = { ...checks, redirectUri, target };
      return { location: location.href, flowCookie: await flows.signFlow(flow) };
    },

    /** The provider's answer: checked, then the account found or made, and the browser sent back with a grant. */
    async finish(callbackUrl: URL, flowCookie: string | undefined): Promise<Navigation> {
      const flow = await flows.verifyFlow(flowCookie);
      if (!flow || !settings || !client) return refuse({ kind: 'dashboard', path: '/' }, 'expired');
      let identity: Awaited<ReturnType<typeof client.identify>>;
      try {
        identity = await client.identify(callbackUrl, flow.redirectUri, flow);
      } catch (err) {
        if (!(err instanceof ProviderAnswerError)) throw err;
        infra.logger.warn({ err }, `single sign-on: ${err.message}`);
        return refuse(flow.target, err.reason, err.detail);
      }
      if (!identity.email || !identity.emailVerified) return refuse(flow.target, 'email-unverified');
      const domain = identity.email.slice(identity.email.lastIndexOf('@') + 1).toLowerCase();
      const allowed = settings.allowedDomains ?? [];
      if (allowed.length > 0 && !allowed.includes(domain)) return refuse(flow.target, 'domain-not-allowed', domain);
      const pending = await auth.signInVerifiedEmail(identity.email, identity.name);
      const grant = await flows.signGrant({
        ...pending,
        ...(flow.target.kind === 'cli' && { challenge: flow.target.challenge }),
      });
      return { location: returnTo(flow.target, { grant }), flowCookie: null };
    },

    /** A grant for its session's token, once; a CLI's grant only with the verifier of its challenge. */
    async redeem(input: { grant: string; verifier?: string }) {
      const refused = () =>
        unauthenticated('This sign-in grant is unknown, expired or already used, or its verifier does not match.');
      const claims = await flows.verifyGrant(input.grant);
      if (!claims) throw refused();
      if (claims.challenge !== undefined) {
        const given = Buffer.from(challengeOf(input.verifier ?? ''));
        const expected = Buffer.from(claims.challenge);
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
      }
      const session = await auth.activatePendingSession(claims);
      if (!session) throw refused();
      return session;
    },
  };
}

export type SingleSignOnService = ReturnType<typeof createSingleSignOnService>;
