import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The real MCP servers the tests talk to, installed as devDependencies and started with this Node and
 * their own bin script (never through npx, which could download).
 */
export const everythingScript = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
export const filesystemScript = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
/** A server on the official SDK whose tool list changes on request (tests/support/mcp/toolListServer.mjs). */
export const toolListScript = path.join(repoRoot, 'tests', 'support', 'mcp', 'toolListServer.mjs');

/** An `mcpServers` entry that runs one of them over stdio. */
export function stdioServer(script: string, args: string[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [script, ...args], ...extra };
}

/** Writes `<configDir>/mcp.json` as a user (or another MCP client) would. */
export async function writeMcpConfig(configDir: string, servers: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<void> {
  await mkdir(configDir, { recursive: true });
  await writeFile(path.join(configDir, 'mcp.json'), `${JSON.stringify({ ...extra, mcpServers: servers }, null, 2)}\n`);
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface HttpServer {
  /** The Streamable HTTP endpoint. */
  url: string;
  child: ChildProcess;
}

/** Stops a server process started for a test (nothing to do when it has already exited). */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

/**
 * server-everything's Streamable HTTP transport on a free loopback port, once it listens. `started` gets
 * the process as soon as it is spawned, so the caller stops it even when it never comes up.
 */
export async function startEverythingHttp(started: (child: ChildProcess) => void): Promise<HttpServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingScript, 'streamableHttp'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  started(child);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening on port ${port}`)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything (HTTP) exited with ${code} before listening:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/**
 * Starts server-everything's Streamable HTTP transport on a free loopback port for each call, and stops
 * every one after the test.
 */
export function useEverythingHttp(): () => Promise<HttpServer> {
  const started: ChildProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map(stopServer));
  });
  return () => startEverythingHttp((child) => started.push(child));
}
