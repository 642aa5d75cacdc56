import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandError } from './errors.js';

export interface StoredSession {
  token: string;
  email: string;
}

/** A development key that `status --env-file` made, kept so that later calls print the same key. */
export interface StoredKey {
  id: string;
  key: string;
}

/** `credentials.json`, mode 0600: secrets, per server URL. */
interface Credentials {
  servers?: Record<string, { session?: StoredSession; statusKeys?: Record<string, StoredKey> }>;
}

/** `config.json`: preferences, per server URL. */
interface Preferences {
  servers?: Record<string, { project?: string }>;
}

/**
 * The command-line tool's folder: what it remembers between runs, per server URL (project ids and
 * sessions belong to one server). Secrets live in `credentials.json`, readable by the user alone.
 */
export class ConfigFolder {
  readonly credentialsFile: string;
  readonly preferencesFile: string;

  constructor(readonly dir: string) {
    this.credentialsFile = join(dir, 'credentials.json');
    this.preferencesFile = join(dir, 'config.json');
  }

  session(url: string): StoredSession | undefined {
    return this.credentials().servers?.[url]?.session;
  }

  saveSession(url: string, session: StoredSession): void {
    this.updateCredentials(url, (server) => {
      server.session = session;
    });
  }

  forgetSession(url: string): void {
    this.updateCredentials(url, (server) => {
      delete server.session;
    });
  }

  statusKey(url: string, projectId: string): StoredKey | undefined {
    return this.credentials().servers?.[url]?.statusKeys?.[projectId];
  }

  saveStatusKey(url: string, projectId: string, key: StoredKey): void {
    this.updateCredentials(url, (server) => {
      server.statusKeys = { ...server.statusKeys, [projectId]: key };
    });
  }

  /** The project chosen with `projects use`. */
  project(url: string): string | undefined {
    return this.preferences().servers?.[url]?.project;
  }

  useProject(url: string, projectId: string): void {
    const preferences = this.preferences();
    preferences.servers = { ...preferences.servers, [url]: { ...preferences.servers?.[url], project: projectId } };
    this.write(this.preferencesFile, preferences, 0o644);
  }

  private credentials(): Credentials {
    return this.read(this.credentialsFile);
  }

  private preferences(): Preferences {
    return this.read(this.preferencesFile);
  }

  private updateCredentials(url: string, change: (server: NonNullable<Credentials['servers']>[string]) => void) {
    const credentials = this.credentials();
    const server = { ...credentials.servers?.[url] };
    change(server);
    credentials.servers = { ...credentials.servers, [url]: server };
    this.write(this.credentialsFile, credentials, 0o600);
  }

  private read<T extends object>(file: string): T {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {} as T;
      throw new CommandError(`cannot read ${file}: ${(err as Error).message}`);
    }
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as T;
    } catch {
      // reported below
    }
    throw new CommandError(`${file} is not a JSON object; fix it or delete it`);
  }

  /** Written whole to a temporary file created with `mode`, then renamed: never half-written, never readable by others. */
  private write(file: string, value: object, mode: number): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode });
    // The mode of a new file is masked by the umask; set it exactly.
    chmodSync(temporary, mode);
    renameSync(temporary, file);
  }
}
