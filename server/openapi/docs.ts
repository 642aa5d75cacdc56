import { createRequire } from 'node:module';
import { apiReference } from '@scalar/express-api-reference';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);
const STANDALONE_SCRIPT = require.resolve('@scalar/api-reference/browser/standalone.js');

/**
 * `/docs` (mounted there): the Scalar reference, fully offline. Its script is served from node_modules (not a CDN),
 * and the features that reach the internet are off: the default web fonts (fonts.scalar.com), the AI agent,
 * the "Open API Client" buttons (they open client.scalar.com with this server's document URL; "Test Request"
 * still opens the built-in client, which sends straight to this server) and telemetry.
 * test/browser/docs.test.ts renders the page in Chromium with every non-loopback request blocked.
 */
export function docsRouter(): Router {
  const router = express.Router();
  router.get('/scalar.js', (_req, res) => {
    res.sendFile(STANDALONE_SCRIPT, { maxAge: '1h' });
  });
  router.get(
    '/',
    apiReference({
      url: '/openapi.json',
      cdn: '/docs/scalar.js',
      pageTitle: 'Switchboard API',
      withDefaultFonts: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
      telemetry: false,
    }),
  );
  return router;
}
