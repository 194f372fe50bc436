import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may talk to the browser host: a request on the loopback address we listen on (no DNS rebinding
 * through a foreign Host header), carrying the random token either in the URL or in the cookie set when
 * the URL was first opened; sockets must also come from our own page (Origin).
 */
export class AccessControl {
  readonly token = randomBytes(24).toString('base64url');

  constructor(private readonly port: number) {}

  get cookieName(): string {
    return `rpi_workbench_${this.port}`; // cookies ignore ports: one name per server
  }

  get sessionCookie(): string {
    return `${this.cookieName}=${this.token}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** The reason a plain HTTP request is refused, or null when it may proceed. */
  refuseRequest(request: IncomingMessage): string | null {
    if (!this.isOwnHost(request.headers.host)) return 'unexpected Host header';
    if (!this.hasToken(request)) return 'missing or wrong access token: open the exact URL printed by `rpi-workbench serve`';
    return null;
  }

  /** Like refuseRequest, plus the Origin check that stops other web pages from opening a socket. */
  refuseSocket(request: IncomingMessage): string | null {
    const origin = request.headers.origin;
    if (!origin || !this.isOwnHost(hostOf(origin)) || !origin.startsWith('http://')) return 'foreign or missing Origin';
    return this.refuseRequest(request);
  }

  private isOwnHost(host: string | undefined): boolean {
    return host === `127.0.0.1:${this.port}` || host === `localhost:${this.port}`;
  }

  private hasToken(request: IncomingMessage): boolean {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const fromQuery = url.searchParams.get('token');
    const fromCookie = readCookie(request.headers.cookie, this.cookieName);
    return [fromQuery, fromCookie].some((candidate) => candidate !== null && this.matches(candidate));
  }

  private matches(candidate: string): boolean {
    const given = Buffer.from(candidate);
    const expected = Buffer.from(this.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}
