import type { ServerResponse } from 'node:http';
import type { ErrorResponse } from './errors.js';

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload)),
  });
  response.end(payload);
}

export function sendError(response: ServerResponse, error: ErrorResponse): void {
  sendJson(response, error.status, error.body, error.headers);
}
