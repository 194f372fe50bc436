import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LauncherReply } from '../../engine/launcherEntry.js';
import { useTempFolders } from '../support/tempFolder.js';

const root = path.resolve(import.meta.dirname, '../..');
const bundle = path.join(root, 'dist/electron/commandLauncher.cjs');
const built = existsSync(bundle);
if (!built) console.log('command launcher bundle check skipped: run `npm run build` first (dist/electron/commandLauncher.cjs is missing)');

/**
 * Electron's utility process gives its module `process.parentPort` (messages arrive as `{ data }`); the
 * Electron binary cannot run here, so the built bundle runs under Node with a parentPort over Node's IPC.
 */
const parentPortOverIpc = `
process.parentPort = {
  postMessage: (message) => process.send(message),
  on: (event, listener) => process.on(event, (data) => listener({ data })),
};
`;

describe.skipIf(!built || process.platform === 'win32')('the Electron command launcher bundle', () => {
  const tempFolder = useTempFolders();

  it('starts a command from its own process and relays its start, output and exit', async () => {
    const folder = await tempFolder();
    const shim = path.join(folder, 'parentPort.cjs');
    await writeFile(shim, parentPortOverIpc);
    const launcher = spawn(process.execPath, ['-r', shim, bundle], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    try {
      const replies: LauncherReply[] = [];
      const done = new Promise<void>((resolve) =>
        launcher.on('message', (reply: LauncherReply) => {
          replies.push(reply);
          if (replies.some((each) => each.event === 'exit') && replies.some((each) => each.event === 'closed')) resolve();
        }),
      );
      launcher.send({ op: 'start', id: 1, file: '/bin/sh', args: ['-c', 'echo $PPID; exit 5'], cwd: folder, env: { PATH: '/usr/bin:/bin' }, detached: true, windowsVerbatimArguments: false });
      await done;
      expect(replies[0]).toMatchObject({ id: 1, event: 'spawn' });
      const output = replies.flatMap((reply) => (reply.event === 'output' ? [Buffer.from(reply.chunk).toString()] : [])).join('');
      expect(Number(output.trim())).toBe(launcher.pid);
      expect(replies.find((reply) => reply.event === 'exit')).toMatchObject({ code: 5, signal: null });
    } finally {
      launcher.kill();
    }
  });
});
