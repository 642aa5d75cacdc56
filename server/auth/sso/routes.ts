import { defineRoute } from '../../http/route.js';
import { presentSession } from '../presenter.js';
import { sessionSchema } from '../schemas.js';
import { redeemGrantBody, signInMethodsSchema } from './schemas.js';

const tag = 'Auth';

export const singleSignOnRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/auth/methods',
    operationId: 'signInMethods',
    summary: 'How accounts sign in',
    description:
      'Whether this server takes passwords, and the single sign-on provider it offers, if any: what the ' +
      'dashboard’s sign-in page and `switchboard login` show.',
    tag,
    auth: 'none',
    response: signInMethodsSchema,
    handler: ({ app }) => {
      const sso = app.security.singleSignOn;
      return {
        password: app.security.passwordSignIn,
        singleSignOn: sso ? { name: sso.name ?? sso.issuer, startPath: '/auth/sso/start' } : null,
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/auth/sso/redeem',
    operationId: 'redeemSignInGrant',
    summary: 'Finish a single sign-on',
    description:
      'Exchanges the `grant` a single sign-on returned with (to the dashboard’s `/sign-in/sso`, or to the CLI’s ' +
      'loopback address) for a session token, once, within two minutes. A grant made for the CLI needs the ' +
      '`verifier` of the challenge it started with.',
    tag,
    auth: 'none',
    body: redeemGrantBody,
    response: sessionSchema,
    errors: {
      SERVICE_UNAUTHENTICATED: 'The grant is unknown, expired or already used, or the verifier does not match.',
    },
    handler: async ({ app, body }) => presentSession(await app.services.singleSignOn.redeem(body)),
  }),
];
