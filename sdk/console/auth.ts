import { path, type Transport } from '../transport.js';
import type { LoginInput, RegisterInput, Session, SessionWhoami } from '../types.js';

/**
 * Accounts and dashboard sessions. `register` and `login` make the client use the new session
 * token; `logout` revokes it on the server and forgets it.
 */
export class AuthResource {
  constructor(private readonly transport: Transport) {}

  async register(input: RegisterInput): Promise<Session> {
    return this.adopt(
      await this.transport.request<Session>({ method: 'POST', path: path`/v1/auth/register`, body: input }),
    );
  }

  async login(input: LoginInput): Promise<Session> {
    return this.adopt(
      await this.transport.request<Session>({ method: 'POST', path: path`/v1/auth/login`, body: input }),
    );
  }

  async logout(): Promise<void> {
    await this.transport.request<void>({ method: 'POST', path: path`/v1/auth/logout` });
    this.transport.credential = undefined;
  }

  /** The signed-in user (`{type: 'session', user}`). */
  whoami(): Promise<SessionWhoami> {
    return this.transport.request<SessionWhoami>({ method: 'GET', path: path`/v1/whoami` });
  }

  private adopt(session: Session): Session {
    this.transport.credential = session.token;
    return session;
  }
}
