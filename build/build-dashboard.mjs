// The dashboard (renderer/) built with Vite into dist/renderer, which the server serves at `/`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Builds the dashboard and resolves with the files it read: every module of the build, and the files beside its
 * Vite config (index.html, the favicon, the config itself).
 * @param {string} root the repository
 * @returns {Promise<string[]>}
 */
export async function buildDashboard(root) {
  const { build } = await import('vite');
  const inputs = new Set();
  // NODE_ENV decides which build of React Vite bundles: a test runner's NODE_ENV=test would ship the development one.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(root, 'renderer', 'vite.config.ts'),
      logLevel: 'warn',
      plugins: [
        {
          name: 'switchboard-build-inputs',
          buildEnd() {
            for (const id of this.getModuleIds()) if (!id.startsWith('\0')) inputs.add(id.split('?')[0]);
          },
        },
      ],
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const beside = readdirSync(join(root, 'renderer'), { withFileTypes: true }).filter((entry) => entry.isFile());
  return [...inputs, ...beside.map((entry) => join('renderer', entry.name))];
}
