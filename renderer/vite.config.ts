import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev:dashboard` sends API calls: a running Switchboard server (`npm start`). */
const SERVER = process.env.SWITCHBOARD_URL ?? 'http://127.0.0.1:4700';

// The dashboard: built into dist/renderer (which the server serves at `/`), or served by Vite with hot reload.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Nothing inline: the page's Content Security Policy allows scripts from the server only.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/v1': { target: SERVER, ws: true },
      '/docs': SERVER,
      '/openapi.json': SERVER,
      '/healthz': SERVER,
    },
  },
});
