import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';

/** A file the app origin serves: its media type and its text. */
export interface AppFile {
  type: string;
  body: string;
}

export interface AppOrigin {
  /** `http://localhost:<port>`: another origin than the Switchboard under test, as a developer's web app is. */
  url: string;
  close(): Promise<void>;
}

/**
 * A web app's own static server on a second local port: what a developer runs with Vite on `localhost:3000`. It serves
 * the given files and nothing else, so a page loaded from it calls Switchboard cross-origin, as a real app does.
 */
export async function startAppOrigin(files: Record<string, AppFile>): Promise<AppOrigin> {
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://localhost').pathname];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTML page that loads the given module script (a file, never inline: the page stays CSP-clean). */
export function appPage(title: string, script: string): AppFile {
  return {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><script type="module" src="${script}"></script></head><body></body></html>`,
  };
}

/**
 * The SDK's browser build: `sdk/index.ts` bundled as one ES module for browsers, as an app's bundler would include it.
 * Built here rather than read from disk so that the test always runs the SDK's current source.
 */
export async function sdkBrowserBuild(): Promise<AppFile> {
  const result = await build({
    entryPoints: ['sdk/index.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return { type: 'text/javascript; charset=utf-8', body: result.outputFiles[0].text };
}
