import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { socketTokenParam } from '../../engine/contract/index.js';

/**
 * Who may talk to the browser host. Every request must name the loopback address we listen on (no
 * DNS rebinding through a foreign Host header). The built renderer holds no secrets and is served to
 * any such request; the socket, which reaches the engine, also needs our own page's Origin and the
 * random token in its URL.
 *
 * The token is never a cookie: browsers send cookies to every port of 127.0.0.1, so any other local
 * server would receive it. The printed URL carries it in the fragment (`#token=…`), which browsers
 * never send anywhere; the page keeps it in sessionStorage, which is scoped to this origin and port.
 */
export class AccessControl {
  readonly token = randomBytes(24).toString('base64url');

  constructor(private readonly port: number) {}

  /** The URL to open: the token in the fragment, so no request and no Referer ever carries it. */
  get pageUrl(): string {
    return `http://127.0.0.1:${this.port}/#${socketTokenParam}=${this.token}`;
  }

  /** The reason a plain HTTP request is refused, or null when it may proceed. */
  refuseRequest(request: IncomingMessage): string | null {
    return this.isOwnHost(request.headers.host) ? null : 'unexpected Host header';
  }

  /** The reason a socket is refused: a foreign Host or Origin, or a missing or wrong token. */
  refuseSocket(request: IncomingMessage, url: URL): string | null {
    const origin = request.headers.origin;
    if (!origin || !origin.startsWith('http://') || !this.isOwnHost(hostOf(origin))) return 'foreign or missing Origin';
    if (!this.isOwnHost(request.headers.host)) return 'unexpected Host header';
    if (!this.matches(url.searchParams.get(socketTokenParam))) {
      return 'missing or wrong access token: open the exact URL printed by `rpi-workbench serve`';
    }
    return null;
  }

  private isOwnHost(host: string | undefined): boolean {
    return host === `127.0.0.1:${this.port}` || host === `localhost:${this.port}`;
  }

  private matches(candidate: string | null): boolean {
    if (candidate === null) return false;
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
