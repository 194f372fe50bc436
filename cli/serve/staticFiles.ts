import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { rendererCsp } from '../../engine/index.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** Serves a file of the built renderer; anything outside `rootDir` or missing is a 404. */
export async function serveStatic(rootDir: string, urlPath: string, response: ServerResponse, extraHeaders: Record<string, string> = {}): Promise<void> {
  const relative = decodeSafely(urlPath === '/' ? '/index.html' : urlPath);
  const file = relative === null ? null : path.resolve(rootDir, `.${relative}`);
  if (file === null || !file.startsWith(rootDir + path.sep)) return sendText(response, 404, 'Not found');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return sendText(response, 404, 'Not found');
  }
  response.writeHead(200, {
    'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
    'content-security-policy': rendererCsp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    ...extraHeaders,
  });
  response.end(body);
}

export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  response.end(`${text}\n`);
}

function decodeSafely(urlPath: string): string | null {
  try {
    const decoded = decodeURIComponent(urlPath);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}
