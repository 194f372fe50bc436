import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AllowedMcpTools } from '../../../engine/mcp/allowedMcpTools.js';
import { McpConfigStore } from '../../../engine/mcp/mcpConfigStore.js';
import { noKeyStorage, type KeyCipher } from '../../../engine/settings/keyCipher.js';
import { writeMcpConfig } from '../../support/mcpServers.js';
import { useTempFolders } from '../../support/tempFolder.js';

/** A cipher with a key of its own, standing in for the OS keychain of the desktop app. */
function keychainCipher(): KeyCipher {
  const key = randomBytes(32);
  return {
    availability: () => ({ ok: true }),
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
    },
    decrypt(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

describe('the MCP servers file', () => {
  const tempFolder = useTempFolders('rpi-mcp-config-');
  const readJson = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'mcp.json'), 'utf8')) as Record<string, unknown>;

  it('reads the mcpServers shape other clients write: stdio with command/args/env/cwd, Streamable HTTP with url/headers', async () => {
    const dir = await tempFolder();
    await writeMcpConfig(dir, {
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } },
      docs: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
      plain: { url: 'http://127.0.0.1:9000/mcp' },
      local: { type: 'stdio', command: '/usr/bin/env', args: ['node', 'server.js'], cwd: 'tools' },
    });
    const store = new McpConfigStore({ configDir: dir, cipher: noKeyStorage('none') });

    const specs = await store.specs();

    expect(specs.map((spec) => [spec.name, spec.launch?.kind, spec.enabled])).toEqual([
      ['github', 'stdio', true],
      ['docs', 'http', true],
      ['plain', 'http', true],
      ['local', 'stdio', true],
    ]);
    expect(specs[0]?.launch).toEqual({ kind: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], cwd: '', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } });
    expect(specs[0]?.secrets.map((secret) => secret.name)).toEqual(['github GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(specs[1]?.launch).toEqual({ kind: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abc' } });
    expect(specs[0]?.timeoutMs).toBe(120_000);
    const views = await store.servers();
    expect(views[0]?.env).toEqual([{ name: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', secret: false }]);
    expect(views[3]).toMatchObject({ transport: 'stdio', cwd: 'tools' });
  });

  it('says what is wrong with an entry it cannot use, and still shows it', async () => {
    const dir = await tempFolder();
    await writeMcpConfig(dir, {
      old: { type: 'sse', url: 'http://localhost:3001/sse' },
      empty: {},
      odd: { command: 'node', args: 'server.js' },
    });
    const store = new McpConfigStore({ configDir: dir, cipher: noKeyStorage('none') });

    const specs = await store.specs();

    expect(specs.map((spec) => spec.problem)).toEqual([
      'The settings of "old" in mcp.json cannot be used: it uses the older SSE transport, which the workbench does not speak: use the server’s Streamable HTTP endpoint ("type": "http").',
      'The settings of "empty" in mcp.json cannot be used: it has neither a "command" (stdio) nor a "url" (Streamable HTTP).',
      'The settings of "odd" in mcp.json cannot be used: "args" is not valid (Invalid input: expected array, received string).',
    ]);
    expect(specs.every((spec) => spec.launch === null)).toBe(true);
    expect((await store.servers()).map((server) => server.name)).toEqual(['old', 'empty', 'odd']);
  });

  it('stores secret values encrypted, keeps them when the form leaves them empty, and keeps keys it does not know', async () => {
    const dir = await tempFolder();
    await writeMcpConfig(dir, { github: { command: 'npx', args: ['server-github'], autoApprove: ['get_issue'] } }, { globalShortcut: 'Ctrl+M' });
    const store = new McpConfigStore({ configDir: dir, cipher: keychainCipher() });

    await store.save(
      {
        name: 'github',
        transport: 'stdio',
        command: 'npx',
        args: ['server-github'],
        env: [
          { name: 'GITHUB_TOKEN', value: 'ghp_secretsecretsecretsecretsecret0123', secret: true },
          { name: 'LOG_LEVEL', value: 'debug', secret: false },
        ],
        researchReadOnly: true,
      },
      'github',
    );
    await store.save({ name: 'github', transport: 'stdio', command: 'npx', args: ['server-github', '--verbose'], env: [{ name: 'GITHUB_TOKEN', secret: true }], timeoutSeconds: 30 }, 'github');

    const file = await readJson(dir);
    const text = JSON.stringify(file);
    expect(text).not.toContain('ghp_secret');
    expect(file).toMatchObject({ globalShortcut: 'Ctrl+M', mcpServers: { github: { command: 'npx', args: ['server-github', '--verbose'], autoApprove: ['get_issue'], timeoutSeconds: 30 } } });
    expect((file['mcpServers'] as Record<string, Record<string, unknown>>)['github']?.['envEncrypted']).toEqual({ GITHUB_TOKEN: expect.any(String) });
    const [spec] = await store.specs();
    expect(spec?.launch).toMatchObject({ env: { GITHUB_TOKEN: 'ghp_secretsecretsecretsecretsecret0123' } });
    expect(spec?.secrets).toEqual([{ name: 'github GITHUB_TOKEN', value: 'ghp_secretsecretsecretsecretsecret0123' }]);
    expect(spec?.researchReadOnly).toBe(false);
    expect((await store.servers())[0]?.env).toEqual([{ name: 'GITHUB_TOKEN', value: null, secret: true }]);
  });

  it('refuses to store a secret where there is no keychain, and a host without one says which value it cannot read', async () => {
    const dir = await tempFolder();
    const desktop = new McpConfigStore({ configDir: dir, cipher: keychainCipher() });
    await desktop.save({ name: 'docs', transport: 'http', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer s3cr3t-t0ken-value', secret: true }] });
    const cli = new McpConfigStore({ configDir: dir, cipher: noKeyStorage('The command line has no keychain.') });

    await expect(cli.save({ name: 'other', transport: 'http', url: 'https://x.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer x', secret: true }] })).rejects.toThrow(
      /^Secret values cannot be stored here: there is no OS keychain/,
    );
    const [spec] = await cli.specs();

    expect(spec?.launch).toBeNull();
    expect(spec?.problem).toBe(
      '"docs" cannot start here: its secret header Authorization is stored encrypted with the desktop app\'s OS keychain, which this program cannot read. Start it from the desktop app, or put the value in "headers" of mcp.json yourself.',
    );
  });

  it('renames, disables and removes servers; a new name may not take another server’s', async () => {
    const dir = await tempFolder();
    const store = new McpConfigStore({ configDir: dir, cipher: noKeyStorage('none') });
    await store.save({ name: 'a', transport: 'stdio', command: 'node' });
    await store.save({ name: 'b', transport: 'stdio', command: 'node' });

    await expect(store.save({ name: 'b', transport: 'stdio', command: 'node' }, 'a')).rejects.toThrow('A server named "b" already exists: choose another name, or edit that one.');
    await expect(store.save({ name: 'a', transport: 'stdio', command: 'node' })).rejects.toThrow('A server named "a" already exists');
    await expect(store.save({ name: 'z', transport: 'stdio', command: 'node' }, 'nope')).rejects.toThrow('There is no MCP server named "nope" to change.');
    await store.save({ name: 'c', transport: 'stdio', command: 'node' }, 'a');
    await store.setEnabled('b', false);
    expect((await store.specs()).map((spec) => [spec.name, spec.enabled])).toEqual([
      ['c', true],
      ['b', false],
    ]);
    await store.remove('c');
    expect((await store.servers()).map((server) => server.name)).toEqual(['b']);
  });
});

describe('"always allow" for MCP tools', () => {
  const tempFolder = useTempFolders('rpi-mcp-allow-');

  it('is kept per server in the config dir, bound to what the server runs', async () => {
    const dir = await tempFolder();
    const allowed = new AllowedMcpTools(dir);

    await allowed.add('github', 'def-1', 'get_issue');
    await allowed.add('github', 'def-1', 'list_issues');
    await allowed.remove('github', 'list_issues');

    expect(await allowed.list('github', 'def-1')).toEqual(['get_issue']);
    expect(await allowed.list('github', 'def-2')).toEqual([]);
    expect(JSON.parse(await readFile(path.join(dir, 'mcp-allowed-tools.json'), 'utf8'))).toEqual({ github: { definition: 'def-1', tools: ['get_issue'] } });
  });
});
