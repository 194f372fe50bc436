import { describe, expect, it } from 'vitest';
import { useTempFolders } from '../../support/tempFolder.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { recordedPids, survivors, useProcessCleanup } from '../../support/processProbe.js';
import { within } from '../../support/within.js';

/** An engine that starts one command (a background sleep, a double-forked daemon, then waits) and keeps running. */
const engineWithCommand = `
const { runShellCommand } = await import(new URL('./process/runShellCommand.ts', process.env.ENGINE_URL).href);
const command = [
  'echo $$ > shell.pid',
  'sleep 300 & echo $! > background.pid',
  "(setsid sh -c 'echo $$ > daemon.pid; exec sleep 300' &)",
  'while [ ! -s daemon.pid ]; do sleep 0.05; done',
  'echo ready',
  'wait',
].join('; ');
void runShellCommand({
  command,
  cwd: process.argv[2],
  env: { PATH: process.env.PATH },
  timeoutMs: 600_000,
  signal: new AbortController().signal,
  log: (line) => line.includes('ready') && console.log('ready'),
  output: { headBytes: 1024, tailBytes: 1024 },
});
setInterval(() => {}, 1000);
`;

describe.skipIf(process.platform === 'win32')('the command watchdog', () => {
  const tempFolder = useTempFolders('rpi-watchdog-');
  const startEngine = useEngineChildren(tempFolder);
  const cleanUp = useProcessCleanup();

  it('ends every process of a running command when its engine is killed with SIGKILL, daemons that left the session included', async () => {
    const root = cleanUp(await tempFolder());
    const engine = await startEngine(engineWithCommand, [root]);
    await engine.waitForOutput('ready');
    expect(Object.keys(await recordedPids(root)).sort()).toEqual(['background', 'daemon', 'shell']);
    expect(await survivors(root)).toEqual(await recordedPids(root));

    engine.kill('SIGKILL');
    await engine.exited;

    expect(await within(10_000, () => survivors(root), (left) => Object.keys(left).length === 0)).toEqual({});
  });
});
