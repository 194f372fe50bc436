import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// index.html carries the production CSP as a meta tag. The dev server needs inline scripts for hot
// reload, and a header cannot loosen a meta policy, so the tag is dropped when serving in dev only.
const cspMetaInBuildOnly: Plugin = {
  name: 'csp-meta-in-build-only',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/, ''),
};

// The renderer is one static bundle served by both hosts: Electron's app:// protocol and the
// browser host's HTTP server. Relative asset URLs let it work under either origin.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), cspMetaInBuildOnly],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
  },
  server: { port: 5173, strictPort: true },
});
