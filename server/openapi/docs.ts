import { basename, dirname } from 'node:path';
import express, { type Router } from 'express';
import { appFiles } from '../app-files/app-files.js';

/**
 * Scalar's settings. Everything that reaches the internet is off: the default web fonts (fonts.scalar.com), the AI
 * agent, the "Open API Client" buttons (they open client.scalar.com with this server's document URL; "Test Request"
 * still opens the built-in client, which sends straight to this server) and telemetry.
 */
const SCALAR_CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  telemetry: false,
};

/** Both scripts are files, not inline: the page's Content Security Policy allows scripts from this server only. */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Switchboard API</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/scalar.js"></script>
    <script src="/docs/start.js"></script>
  </body>
</html>
`;
const START_SCRIPT = `Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_CONFIGURATION)});\n`;

/**
 * `/docs` (mounted there): the Scalar reference, fully offline. Its script is served from node_modules, or from the
 * single executable's cache folder (never a CDN).
 * test/browser/docs.test.ts renders the page in Chromium with every non-loopback request blocked.
 */
export function docsRouter(): Router {
  const router = express.Router();
  const standaloneScript = appFiles.scalarScript();
  router.get('/scalar.js', (_req, res) => {
    // Sent from its folder as root: send refuses a path with a dot-folder in it, as the cache folder (~/.cache) is.
    res.sendFile(basename(standaloneScript), { root: dirname(standaloneScript), maxAge: '1h' });
  });
  router.get('/start.js', (_req, res) => {
    res.type('text/javascript').set('Cache-Control', 'no-cache').send(START_SCRIPT);
  });
  router.get('/', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(PAGE);
  });
  return router;
}
