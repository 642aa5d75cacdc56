import type { Request, Response } from 'express';
import type { AppContext } from '../context.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * `/`: what this server is and where to go next. Self-contained (no fonts, scripts or images from
 * anywhere), so it renders offline in a browser or in the desktop window.
 */
export function homePage(ctx: AppContext) {
  return (req: Request, res: Response): void => {
    const base = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.type('html').send(`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Switchboard</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2430; }
    main { max-width: 40rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 12px;
      box-shadow: 0 1px 3px rgb(0 0 0 / 0.1); }
    h1 { margin-top: 0; } code { background: #eef1f5; padding: 0.1rem 0.3rem; border-radius: 4px; }
    a { color: #2456d6; } dt { font-weight: 600; } dd { margin: 0 0 0.75rem; }
  </style>
</head>
<body>
  <main>
    <h1>Switchboard is running</h1>
    <p>Version ${escapeHtml(ctx.version)}, deployment mode <code>${escapeHtml(ctx.mode)}</code>.</p>
    <dl>
      <dt>API</dt><dd><code>${escapeHtml(base)}/v1</code></dd>
      <dt>Reference</dt><dd><a href="/docs">Interactive API docs</a> · <a href="/openapi.json">OpenAPI document</a></dd>
      <dt>Health</dt><dd><a href="/healthz">/healthz</a></dd>
    </dl>
    <p>Create an account with <code>POST /v1/auth/register</code>, a project with <code>POST /v1/projects</code>,
      then an API key with <code>POST /v1/projects/{id}/api-keys</code>.</p>
  </main>
</body>
</html>`);
  };
}
