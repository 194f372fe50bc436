import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const protocol = vi.hoisted(() => ({ registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() }));
vi.mock('electron', () => ({ protocol }));

const { registerAppScheme, rendererRequestHandler } = await import('../../electron/appProtocol.js');
const { rendererCsp } = await import('../../engine/host/contentSecurityPolicy.js');

let base: string;
let serve: (request: Request) => Promise<Response>;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'app-protocol-'));
  const renderer = path.join(base, 'dist', 'renderer');
  await mkdir(path.join(renderer, 'assets'), { recursive: true });
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>RPI Workbench</title>');
  await writeFile(path.join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(path.join(base, 'dist', 'secret.txt'), 'outside the renderer');
  serve = rendererRequestHandler(renderer);
});

afterAll(() => rm(base, { recursive: true, force: true }));

const get = (url: string) => serve(new Request(url));

describe('the app:// protocol', () => {
  it('is registered as a standard, secure scheme with fetch support', () => {
    registerAppScheme();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });

  it('serves the renderer with the strict CSP', async () => {
    const page = await get('app://renderer/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(rendererCsp);
    expect(await page.text()).toContain('RPI Workbench');
    const script = await get('app://renderer/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('app://renderer/')).status).toBe(200);
  });

  it("allows only our own files, no inline code, no framing", () => {
    expect(rendererCsp).toContain("script-src 'self'");
    expect(rendererCsp).toContain("img-src 'self' data:");
    expect(rendererCsp).toContain("object-src 'none'");
    expect(rendererCsp).toContain("frame-ancestors 'none'");
    expect(rendererCsp).not.toContain('unsafe');
  });

  it.each([
    'app://renderer/../../etc/passwd',
    'app://renderer/../secret.txt',
    'app://renderer/%2e%2e/secret.txt',
    'app://renderer/..%2fsecret.txt',
    'app://renderer/assets/..%2f..%2fsecret.txt',
    'app://renderer/%2fetc%2fpasswd',
    'app://renderer/index.html%00.js',
    'app://renderer/missing.js',
    'app://other-host/index.html',
  ])('answers 404 for %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toBe(rendererCsp);
    expect(await response.text()).not.toContain('outside the renderer');
  });

  it('refuses anything but GET and HEAD', async () => {
    expect((await serve(new Request('app://renderer/index.html', { method: 'POST', body: 'x' }))).status).toBe(405);
  });
});
