import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is one static bundle served by both hosts: Electron's app:// protocol and the
// browser host's HTTP server. Relative asset URLs let it work under either origin.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
  },
  server: { port: 5173, strictPort: true },
});
