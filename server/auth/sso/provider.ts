import * as oidc from 'openid-client';
import type { SingleSignOnSettings } from './settings.js';

/** Who the provider says signed in. */
export interface ProviderIdentity {
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

/** What one sign-in keeps between its start and the provider's answer (the flow cookie: flow-cookie.ts). */
export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Why the provider's answer was refused; `detail` is the provider's own OAuth error code, when it gave one. */
export class ProviderAnswerError extends Error {
  constructor(
    readonly reason: 'state-mismatch' | 'provider-refused' | 'provider-unreachable',
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ProviderAnswerError';
  }
}

const SCOPE = 'openid email profile';

/**
 * The OpenID Connect relying party, with openid-client: the provider's metadata is discovered on the first sign-in
 * (and again after a failure), not at start, so that a server starts while its provider is down.
 */
export function createOidcClient(settings: SingleSignOnSettings) {
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        // The method OpenID Connect assumes when a client registered none.
        oidc.ClientSecretBasic(settings.clientSecret),
        // resolveSingleSignOn allowed http:// only in local mode or on loopback.
        { execute: new URL(settings.issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [] },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw new ProviderAnswerError(
          'provider-unreachable',
          `The provider's configuration at ${settings.issuer} could not be read: ${(err as Error).message}`,
        );
      });
    return discovered;
  };

  return {
    /** Fresh state, nonce and PKCE verifier for one sign-in. */
    newChecks: (): AuthorizationChecks => ({
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    }),

    async authorizationUrl(redirectUri: string, checks: AuthorizationChecks): Promise<URL> {
      return oidc.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    /**
     * Checks the provider's answer (state, then the code exchanged with the PKCE verifier, then the ID token's
     * nonce and signature) and reads the address from the ID token, or from userinfo when the token has none.
     */
    async identify(callbackUrl: URL, redirectUri: string, checks: AuthorizationChecks): Promise<ProviderIdentity> {
      // Checked here first too, so that a wrong state is named as such whatever the library's message.
      if (callbackUrl.searchParams.get('state') !== checks.state)
        throw new ProviderAnswerError('state-mismatch', 'The answer carries another sign-in’s state.');
      const config = await configuration();
      // openid-client takes the redirect URI from the URL it is given: the one sent, whatever host answered.
      const answered = new URL(redirectUri);
      answered.search = callbackUrl.search;
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, answered, {
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          pkceCodeVerifier: checks.codeVerifier,
          idTokenExpected: true,
        });
      } catch (err) {
        throw classify(err);
      }
      const claims = tokens.claims();
      if (!claims) throw new ProviderAnswerError('provider-refused', 'The provider sent no ID token.');
      let { email, email_verified: verified, name } = claims;
      if (email === undefined && config.serverMetadata().userinfo_endpoint) {
        try {
          ({
            email,
            email_verified: verified,
            name,
          } = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub));
        } catch (err) {
          throw classify(err);
        }
      }
      return {
        email: typeof email === 'string' ? email : undefined,
        // Only a literal true: some providers send the string "true", which is not what the claim means.
        emailVerified: verified === true,
        name: typeof name === 'string' ? name : undefined,
      };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;

/** openid-client's failures, sorted into what the refusal page says. */
function classify(err: unknown): ProviderAnswerError {
  if (err instanceof ProviderAnswerError) return err;
  if (err instanceof oidc.AuthorizationResponseError || err instanceof oidc.ResponseBodyError)
    return new ProviderAnswerError('provider-refused', err.error_description ?? err.error, err.error);
  // A state or nonce that is not this sign-in's (oauth4webapi checks both with the answer's other claims).
  if (err instanceof Error && 'code' in err) {
    const { code } = err as { code?: string };
    if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED')
      return new ProviderAnswerError('state-mismatch', err.message);
    if (code === 'OAUTH_HTTP_REQUEST_FORBIDDEN' || err.cause instanceof TypeError)
      return new ProviderAnswerError('provider-unreachable', err.message);
  }
  if (err instanceof TypeError) return new ProviderAnswerError('provider-unreachable', err.message);
  return new ProviderAnswerError('provider-refused', (err as Error).message);
}
