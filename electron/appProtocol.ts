import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { protocol } from 'electron';
import { rendererCsp } from '../engine/index.js';
import { appHost, appScheme } from './origins.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Declares app:// as a standard, secure scheme so the renderer gets a real origin ('self' in the CSP
 * means app://renderer) instead of the over-privileged file://. Must run before the app is ready.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves app://renderer/… from `rendererDir` (dist/renderer). Call once the app is ready. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(appScheme, rendererRequestHandler(rendererDir));
}

/**
 * Answers a request with a file from inside `rendererDir`, or 404. The decoded path is resolved and
 * must stay inside the folder, so `..` segments (plain or percent-encoded) cannot reach other files.
 */
export function rendererRequestHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const root = path.resolve(rendererDir);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return respond(405, 'Method not allowed');
    const file = resolveInside(root, request.url);
    if (!file) return respond(404, 'Not found');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return respond(404, 'Not found');
    }
    const type = contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    return respond(200, request.method === 'HEAD' ? null : new Uint8Array(body), type);
  };
}

function resolveInside(root: string, url: string): string | null {
  let pathname: string;
  try {
    const parsed = new URL(url);
    if (parsed.host !== appHost) return null;
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const file = path.resolve(root, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
  const relative = path.relative(root, file);
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return null;
  return file;
}

function respond(status: number, body: Uint8Array<ArrayBuffer> | string | null, type = 'text/plain; charset=utf-8'): Response {
  return new Response(body, {
    status,
    headers: {
      'Content-Type': type,
      'Content-Security-Policy': rendererCsp,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
