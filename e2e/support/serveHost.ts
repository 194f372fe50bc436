import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ApprovalSettings, ToolMode } from '../../engine/contract/index.js';

export interface ServedFolder {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const bin = path.resolve('bin/rpi-workbench.cjs');

/** What `<configDir>/settings.json` starts with: the model to call and the approval policies. */
export interface ServedSettings {
  baseUrl: string;
  model: string;
  contextWindow?: number;
  toolMode?: ToolMode;
  approvals?: Partial<ApprovalSettings>;
}

/**
 * Starts the built `rpi-workbench serve` on `folder` with its own temp config dir (holding `configFiles`
 * too, e.g. mcp.json); resolves with the printed URL.
 */
export async function serveFolder(folder: string, env: NodeJS.ProcessEnv = {}, settings?: ServedSettings, configFiles: Record<string, string> = {}): Promise<ServedFolder> {
  const configDir = await mkdtemp(path.join(os.tmpdir(), 'rpi-e2e-config-'));
  if (settings) await writeFile(path.join(configDir, 'settings.json'), JSON.stringify(settings));
  for (const [name, content] of Object.entries(configFiles)) await writeFile(path.join(configDir, name), content);
  const child = spawn(process.execPath, [bin, 'serve', folder], {
    env: { ...process.env, OPENAI_API_KEY: '', ...env, RPI_WORKBENCH_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /Open: (\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  }).catch(async (error: unknown) => {
    await rm(configDir, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(configDir, { recursive: true, force: true });
    },
  };
}
