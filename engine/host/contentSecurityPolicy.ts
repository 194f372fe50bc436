/**
 * The Content-Security-Policy every host serves the renderer with (Electron's app:// protocol, the
 * browser host's HTTP server): nothing but our own files, no inline code. 'self' covers the browser
 * host's own WebSocket. renderer/index.html repeats it as a meta tag for defence in depth.
 */
export const rendererCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');
