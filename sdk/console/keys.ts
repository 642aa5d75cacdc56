import type { Transport } from '../transport.js';
import type { ApiKeyList, CreateApiKeyInput, CreatedApiKey, EnvironmentInput } from '../types.js';

/** A project's API keys. Each belongs to one environment; every call acts in development unless told otherwise. */
export class KeysResource {
  constructor(private readonly transport: Transport) {}

  /** The answer's `key` is the full key, shown this once. Keep a production key server-side. */
  create(projectId: string, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    return this.transport.call('createApiKey', { params: { id: projectId }, body: input });
  }

  /** The active keys of one environment: metadata only, never the secret. */
  list(projectId: string, options: EnvironmentInput = {}): Promise<ApiKeyList> {
    return this.transport.call('listApiKeys', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  /** The key answers 401 from the next request on. It must belong to the environment given. */
  revoke(projectId: string, keyId: string, options: EnvironmentInput = {}): Promise<void> {
    return this.transport.call('revokeApiKey', {
      params: { id: projectId, keyId },
      query: { environment: options.environment },
    });
  }
}
