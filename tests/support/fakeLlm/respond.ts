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

/** A web server's own page where the API should answer (status 200). */
export function sendHtml(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end('<!doctype html><html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1></body></html>');
}
