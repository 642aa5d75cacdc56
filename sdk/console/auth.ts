import type { Transport } from '../transport.js';
import type {
  LoginInput,
  RedeemSignInGrantInput,
  RegisterInput,
  Session,
  SessionWhoami,
  SignInMethods,
} from '../types.js';

/**
 * Accounts and dashboard sessions. `register` and `login` make the client use the new session
 * token; `logout` revokes it on the server and forgets it.
 */
export class AuthResource {
  constructor(private readonly transport: Transport) {}

  async register(input: RegisterInput): Promise<Session> {
    return this.adopt(await this.transport.call('register', { body: input }));
  }

  async login(input: LoginInput): Promise<Session> {
    return this.adopt(await this.transport.call('login', { body: input }));
  }

  /** Whether the server takes passwords, and its single sign-on provider, if any. Needs no credential. */
  methods(): Promise<SignInMethods> {
    return this.transport.call('signInMethods');
  }

  /**
   * Finishes a single sign-on: the `grant` it returned with (and, for a sign-in the CLI started, its verifier) for
   * a session, which the client then uses. A grant works once, within two minutes.
   */
  async redeemGrant(input: RedeemSignInGrantInput): Promise<Session> {
    return this.adopt(await this.transport.call('redeemSignInGrant', { body: input }));
  }

  async logout(): Promise<void> {
    await this.transport.call('logout');
    this.transport.credential = undefined;
  }

  /** The signed-in user (`{type: 'session', user}`). */
  async whoami(): Promise<SessionWhoami> {
    // This client holds a session token, which the route answers with the session form.
    return (await this.transport.call('whoami')) as SessionWhoami;
  }

  private adopt(session: Session): Session {
    this.transport.credential = session.token;
    return session;
  }
}
