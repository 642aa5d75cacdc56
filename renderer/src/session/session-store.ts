import { ConsoleClient, type LoginInput, type RegisterInput, type User } from '../sdk';

/**
 * Kept in localStorage, not sessionStorage: a session should survive a reload, a second tab and a restart of the
 * desktop app, as a signed-in web app's does. The server bounds its life (expiry, sign-out revokes it at once),
 * and the page's Content Security Policy allows no script but the dashboard's own to read it.
 */
const STORAGE_KEY = 'switchboard.session';

interface StoredSession {
  token: string;
  user: User;
}

export interface SessionState {
  client: ConsoleClient;
  user: User | null;
  /** Why the last session ended without a sign-out (it expired or was revoked), for the sign-in page to say. */
  endedBecause: string | null;
}

function readStored(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<StoredSession>) : null;
    return parsed?.token && parsed.user ? (parsed as StoredSession) : null;
  } catch {
    return null;
  }
}

/** The signed-in user and the one ConsoleClient that carries their token; React reads it through useSession. */
export class SessionStore {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly baseUrl = '') {
    const stored = readStored();
    this.state = { client: this.newClient(stored?.token), user: stored?.user ?? null, endedBecause: null };
    // Another tab (or window) of the dashboard signed in or out: follow it rather than act on a stale session.
    window.addEventListener('storage', (event) => {
      if (event.key === STORAGE_KEY) this.followOtherTab();
    });
  }

  get = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get signedIn(): boolean {
    return this.state.user !== null;
  }

  async signIn(input: LoginInput): Promise<void> {
    const client = this.newClient();
    const session = await client.auth.login(input);
    this.adopt(client, session.user);
  }

  /** Finishes a single sign-on: the grant the server sent the browser back with, for a session. */
  async redeemGrant(grant: string): Promise<void> {
    const client = this.newClient();
    const session = await client.auth.redeemGrant({ grant });
    this.adopt(client, session.user);
  }

  async register(input: RegisterInput): Promise<void> {
    const client = this.newClient();
    const session = await client.auth.register(input);
    this.adopt(client, session.user);
  }

  /** Revokes the session on the server, then forgets it here (also when the server no longer knew it). */
  async signOut(): Promise<void> {
    try {
      await this.state.client.auth.logout();
    } finally {
      this.forget(null);
    }
  }

  /** The server refused the token (expired, revoked): forget it and say so on the sign-in page. */
  expire(): void {
    if (!this.signedIn) return;
    this.forget('Your session has ended (it expired or was signed out elsewhere). Sign in again to continue.');
  }

  private followOtherTab(): void {
    const stored = readStored();
    if (stored?.token === this.state.client.token) return;
    if (stored) this.set({ client: this.newClient(stored.token), user: stored.user, endedBecause: null });
    else if (this.signedIn)
      this.set({ client: this.newClient(), user: null, endedBecause: 'You signed out in another window.' });
  }

  private adopt(client: ConsoleClient, user: User): void {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ token: client.token, user } satisfies Partial<StoredSession>));
    this.set({ client, user, endedBecause: null });
  }

  private forget(endedBecause: string | null): void {
    localStorage.removeItem(STORAGE_KEY);
    this.set({ client: this.newClient(), user: null, endedBecause });
  }

  private newClient(token?: string): ConsoleClient {
    return new ConsoleClient({ baseUrl: this.baseUrl, token });
  }

  private set(state: SessionState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
