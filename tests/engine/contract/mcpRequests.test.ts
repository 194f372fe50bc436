import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../engine/contract/index.js';

describe('MCP requests at the boundary', () => {
  it('fills in the defaults of a saved server', () => {
    expect(validateRequest('mcp:save', { server: { name: 'docs', transport: 'http', url: 'https://mcp.example.com/mcp' } })).toEqual({
      ok: true,
      value: {
        channel: 'mcp:save',
        payload: { server: { name: 'docs', transport: 'http', url: 'https://mcp.example.com/mcp', args: [], env: [], headers: [], enabled: true, researchReadOnly: false, timeoutSeconds: 120 } },
      },
    });
  });

  it.each([
    [{ name: 'has space', transport: 'stdio', command: 'x' }, 'mcp:save: server.name must start with a letter or digit and hold only letters, digits, "_", "-" and "." (at most 40)'],
    [{ name: 'a', transport: 'stdio' }, 'mcp:save: server.command is needed for a stdio server'],
    [{ name: 'a', transport: 'http', url: 'file:///etc/passwd' }, 'mcp:save: server.url must be an http:// or https:// URL'],
    [{ name: 'a', transport: 'sse', url: 'http://x' }, 'mcp:save: server.transport must be "stdio" or "http"'],
    [{ name: 'a', transport: 'stdio', command: 'x', timeoutSeconds: 1 }, 'mcp:save: server.timeoutSeconds must be at least 5 seconds'],
    [{ name: 'a', transport: 'stdio', command: 'x', env: [{ name: 'A\nB', value: 'x', secret: false }] }, 'mcp:save: server.env.0.name must be on one line'],
    [{ name: 'a', transport: 'stdio', command: 'x', shell: true }, 'mcp:save: unexpected field "shell"'],
  ])('refuses %j', (server, error) => {
    expect(validateRequest('mcp:save', { server })).toEqual({ ok: false, error });
  });
});
