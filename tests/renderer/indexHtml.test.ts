import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { rendererCsp } from '../../engine/host/contentSecurityPolicy.js';

describe('renderer/index.html', () => {
  it('carries the hosts’ CSP as a meta tag (minus frame-ancestors, which a meta tag cannot set)', async () => {
    const html = await readFile('renderer/index.html', 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    const expected = rendererCsp
      .split('; ')
      .filter((directive) => !directive.startsWith('frame-ancestors'))
      .join('; ');
    expect(meta).toBe(expected);
  });

  it('loads no inline script', async () => {
    const html = await readFile('renderer/index.html', 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
