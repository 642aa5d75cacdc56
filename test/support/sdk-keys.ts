import { type ConsoleClient, type Environment, ServerClient } from '../../sdk/index.js';
import { signedInClient } from './sdk.js';

/** A fresh account and project, with a ServerClient on a new key of `environment`. */
export async function serverClient(
  baseUrl: string,
  environment: Environment = 'development',
): Promise<{ console: ConsoleClient; projectId: string; server: ServerClient; apiKey: string }> {
  const console = await signedInClient(baseUrl);
  const projectId = (await console.projects.create({ name: 'SDK' })).id;
  const { key } = await console.keys.create(projectId, { name: 'backend', environment });
  return { console, projectId, server: new ServerClient({ baseUrl, apiKey: key }), apiKey: key };
}
