import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** An account of the test provider: its login on the provider's form, and the claims it gives. */
export interface ProviderAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export const TEST_CLIENT = { id: 'switchboard-test', secret: 'a test client secret, not a real one' };

export interface TestProvider {
  issuer: string;
  /** Registers the client's redirect URIs (known once the Switchboard servers listen) and starts answering. */
  register(...redirectUris: string[]): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Provider (the `oidc-provider` package) on a loopback port, with one confidential client and the
 * accounts given: its development sign-in form takes an account's login (any password-less "login" is accepted),
 * and the client's grant of `openid email profile` is made at once, so no consent page follows.
 */
export async function startTestProvider(accounts: Record<string, ProviderAccount>): Promise<TestProvider> {
  let handler: RequestListener | undefined;
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end('the test provider has no client yet');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    register(...redirectUris) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: TEST_CLIENT.id,
            client_secret: TEST_CLIENT.secret,
            redirect_uris: redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        async findAccount(_ctx, id) {
          const account = accounts[id];
          if (!account) return undefined;
          return { accountId: id, claims: async () => ({ sub: id, ...account }) };
        },
        // A first-party client: its scopes are granted without a consent page.
        async loadExistingGrant(ctx: KoaContextWithOIDC) {
          const { client, session } = ctx.oidc;
          if (!client || !session?.accountId) return undefined;
          const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
          if (grantId) return ctx.oidc.provider.Grant.find(grantId);
          const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
          grant.addOIDCScope('openid email profile');
          await grant.save();
          return grant;
        },
        features: { devInteractions: { enabled: true } },
        ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
        // Quiet: the provider's keys and cookie keys are throw-away ones it makes itself.
        renderError(ctx, out) {
          ctx.type = 'text/plain';
          ctx.body = `${out.error}: ${out.error_description ?? ''}`;
        },
      });
      handler = provider.callback();
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Cookies by host, as a browser keeps them (paths and expiry aside: enough for one sign-in). */
class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  header(url: URL): string {
    return [...(this.byHost.get(url.host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  keep(url: URL, response: Response): void {
    const cookies = this.byHost.get(url.host) ?? new Map<string, string>();
    this.byHost.set(url.host, cookies);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || /expires=thu, 01 jan 1970/i.test(line))
        cookies.delete(name);
      else cookies.set(name, pair.slice(at + 1).trim());
    }
  }
}

export interface BrowserlessSignIn {
  /** Where the sign-in ended: the first redirect that leaves the server and the provider (dashboard or CLI). */
  finalLocation: URL;
}

/**
 * What a browser does during a single sign-on, with fetch: from `startUrl` (the server's `/auth/sso/start…`) through
 * the provider's development sign-in form as `login`, back to the server's callback, until the server sends it
 * elsewhere (its dashboard page or the CLI's loopback address), which is returned unvisited. `tamper` may change
 * the authorization request on its way to the provider (a wrong state or nonce); `dropServerCookies` loses the
 * flow cookie (another browser).
 */
export async function signInWithoutBrowser(
  startUrl: string,
  login: string,
  options: { tamper?: (authorization: URL) => void; dropServerCookies?: boolean } = {},
): Promise<BrowserlessSignIn> {
  const jar = new CookieJar();
  const server = new URL(startUrl).host;
  let url = new URL(startUrl);
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header(url) },
    });
    if (!(options.dropServerCookies && url.host === server)) jar.keep(url, response);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      const leavesServer = url.host === server && next.host !== server && url.pathname === '/auth/sso/callback';
      if (leavesServer || (next.host === server && next.pathname.startsWith('/sign-in')))
        return { finalLocation: next };
      if (url.pathname === '/auth/sso/start' && next.host !== server) options.tamper?.(next);
      url = next;
      init = {};
      continue;
    }
    const page = await response.text();
    // The provider's development sign-in form: post the login to its action.
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (response.ok && action && page.includes('name="login"')) {
      url = new URL(action.replaceAll('&amp;', '&'), url);
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      };
      continue;
    }
    throw new Error(`the sign-in stopped at ${url.href}: HTTP ${response.status} ${page.slice(0, 300)}`);
  }
  throw new Error('the sign-in redirected more than 20 times');
}
