import { createRequire } from 'node:module';
import { apiReference } from '@scalar/express-api-reference';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);
const STANDALONE_SCRIPT = require.resolve('@scalar/api-reference/browser/standalone.js');

/**
 * `/docs`: the Scalar reference, fully offline. Its script is served from node_modules (not a CDN),
 * and the features that reach the internet (default web fonts, the AI agent) are off.
 */
export function docsRouter(): Router {
  const router = express.Router();
  router.get('/docs/scalar.js', (_req, res) => {
    res.sendFile(STANDALONE_SCRIPT, { maxAge: '1h' });
  });
  router.get(
    '/docs',
    apiReference({
      url: '/openapi.json',
      cdn: '/docs/scalar.js',
      pageTitle: 'Switchboard API',
      withDefaultFonts: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
    }),
  );
  return router;
}
