import * as z from 'zod';

/**
 * Why a single sign-on was refused, as the browser's return address says it (`?error=`): the sign-in expired or was
 * started in another browser; the answer is not this sign-in's (state or nonce); the provider gave no verified
 * address; the address's domain is not allowed; the provider refused or failed; the provider could not be reached.
 */
export const ssoRefusalSchema = z.enum([
  'expired',
  'state-mismatch',
  'email-unverified',
  'domain-not-allowed',
  'provider-refused',
  'provider-unreachable',
]);
export type SsoRefusal = z.output<typeof ssoRefusalSchema>;

export const signInMethodsSchema = z.lazy(() =>
  z
    .object({
      password: z.boolean().meta({ description: 'Whether accounts sign in and register with a password.' }),
      singleSignOn: z
        .object({
          name: z.string().meta({ description: 'The provider’s name, for “Sign in with …”.', example: 'Acme SSO' }),
          startPath: z.string().meta({
            description:
              'Where a browser starts signing in (`?redirect=` a dashboard path; the CLI: `?cli=` its loopback ' +
              'URL and `challenge=` the S256 challenge of its verifier).',
            example: '/auth/sso/start',
          }),
        })
        .nullable()
        .meta({ description: 'The OpenID Connect provider, or null when the server has none.' }),
    })
    .meta({ id: 'SignInMethods' }),
);

export const redeemGrantBody = z.lazy(() =>
  z
    .strictObject({
      grant: z.string().max(4096).meta({ description: 'The `grant` the sign-in returned with.' }),
      verifier: z
        .string()
        .max(128)
        .optional()
        .meta({ description: 'The CLI’s PKCE verifier, whose S256 challenge it started the sign-in with.' }),
    })
    .meta({ id: 'RedeemSignInGrant' }),
);
