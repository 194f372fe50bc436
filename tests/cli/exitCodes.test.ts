import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli, writeSettingsFile } from '../support/cliProcess.js';
import { useFakeLlm, useFakeLlmStarter } from '../support/fakeLlm/useFakeLlm.js';
import { useTempFolders } from '../support/tempFolder.js';
import { closedPort } from '../support/closedPort.js';

describe('exit 2: usage and configuration errors, one clear line each', () => {
  const tempFolder = useTempFolders('rpi-cli-exit-');
  const llm = useFakeLlm();
  const startLlm = useFakeLlmStarter();
  const cli = useCli();
  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  it('a missing folder', async () => {
    const missing = path.join(await tempFolder(), 'nope');
    const run = await cli.run(['run', missing, 'Do it', ...model()]);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `rpi-workbench: Folder not found: ${missing}\n` });
  });

  it('a file given as the folder', async () => {
    const file = path.join(await tempFolder(), 'file.txt');
    await writeFile(file, 'x');
    const run = await cli.run(['resume', file, ...model()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`rpi-workbench: ${file} is a file, not a folder: choose the project folder that contains it.\n`);
  });

  it('no model configured: nothing is sent, nothing is written', async () => {
    const root = await tempFolder();
    const run = await cli.run(['run', root, 'Do it', '--base-url', llm().baseUrl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("rpi-workbench: No model is configured: pass --model, set RPI_MODEL, or choose a model in the desktop app's Settings.\n");
    expect(llm().requests).toEqual([]);
    // Nothing was started, so nothing was created in the folder.
    expect(existsSync(path.join(root, '.workbench'))).toBe(false);
  });

  it('an unreachable base URL', async () => {
    const root = await tempFolder();
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = await cli.run(['run', root, 'Do it', '--model', 'fake-model'], { env: { OPENAI_BASE_URL: baseUrl } });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`rpi-workbench: Cannot reach the model server at ${baseUrl} (ECONNREFUSED). Check the base URL and that the server is running.\n`);
    // Nothing was started, so nothing was created in the folder.
    expect(existsSync(path.join(root, '.workbench'))).toBe(false);
  });

  it('an API key the server refuses (HTTP 401), without ever printing it', async () => {
    const root = await tempFolder();
    const guarded = await startLlm({ apiKey: 'sk-the-right-one' });
    const wrong = await cli.run(['run', root, 'Do it', '--model', 'fake-model', '--base-url', guarded.baseUrl, '--api-key', 'sk-wrong-key-123']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(
      `rpi-workbench: The model server at ${guarded.baseUrl} rejected the API key (HTTP 401). Check the API key in Settings or OPENAI_API_KEY.\n`,
    );
    expect(wrong.stdout + wrong.stderr).not.toContain('sk-wrong-key-123');
    expect(guarded.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-wrong-key-123']);

    const none = await cli.run(['run', root, 'Do it', '--model', 'fake-model', '--base-url', guarded.baseUrl]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/rejected the API key \(HTTP 401\)\. .* No API key was given: set OPENAI_API_KEY or pass --api-key\.\n$/);

    await writeSettingsFile(cli.configDir(), { apiKeyEncrypted: Buffer.from('sealed by the OS keychain').toString('base64') });
    const stored = await cli.run(['run', root, 'Do it', '--model', 'fake-model', '--base-url', guarded.baseUrl]);
    expect(stored.code).toBe(2);
    expect(stored.stderr).toContain('The API key stored by the desktop app is encrypted with its OS keychain access, which the command line does not have: set OPENAI_API_KEY or pass --api-key.');
    // Nothing was started, so nothing was created in the folder.
    expect(existsSync(path.join(root, '.workbench'))).toBe(false);
  });

  it('an unknown flag, listing the valid options', async () => {
    const root = await tempFolder();
    const run = await cli.run(['run', root, 'Do it', '--bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^rpi-workbench: unknown option '--bogus'\n/);
    for (const option of ['--base-url <url>', '--model <name>', '--api-key <key>', '--tool-mode <mode>', '--json', '--yes', '--review-plan']) {
      expect(run.stderr).toContain(option);
    }
    const history = await cli.run(['history', root, '--yes']);
    expect(history.code).toBe(2);
    expect(history.stderr).toContain("unknown option '--yes'");
    expect(history.stderr).toContain('--json');
  });

  it('a bad option value, a missing argument, or no command at all', async () => {
    const root = await tempFolder();
    const toolMode = await cli.run(['run', root, 'Do it', '--tool-mode', 'smoke-signals']);
    expect(toolMode.code).toBe(2);
    expect(toolMode.stderr).toContain('Allowed choices are native, text, auto.');
    const baseUrl = await cli.run(['run', root, 'Do it', '--base-url', 'localhost:1234']);
    expect(baseUrl.code).toBe(2);
    expect(baseUrl.stderr).toContain('must be an http:// or https:// URL');
    expect((await cli.run(['run', root])).code).toBe(2);
    expect((await cli.run(['undo', root])).code).toBe(2);
    const bare = await cli.run([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: rpi-workbench [options] [command]');
  });

  it('--review-plan where nobody can answer and without --yes', async () => {
    const root = await tempFolder();
    const run = await cli.run(['run', root, 'Do it', '--review-plan', ...model()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'rpi-workbench: --review-plan needs a terminal to answer on, and this is not one: run it in a terminal, or add --yes to approve the plan unseen.\n',
    );
    expect(llm().requests).toEqual([]);
  });

  it('nothing to resume', async () => {
    const root = await tempFolder();
    const run = await cli.run(['resume', root, ...model()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Context window: [\d,]+ tokens \(from .+\)\nrpi-workbench: Nothing to resume: this folder has no request yet\.\n$/);
  });
});

describe('--help', () => {
  const cli = useCli();

  it('documents every command, exit 0', async () => {
    for (const [command, usage] of [
      ['run', 'Usage: rpi-workbench run [options] <folder> <request...>'],
      ['resume', 'Usage: rpi-workbench resume [options] <folder>'],
      ['regenerate', 'Usage: rpi-workbench regenerate [options] <folder> <messageId>'],
      ['chat', 'Usage: rpi-workbench chat [options] <folder>'],
      ['history', 'Usage: rpi-workbench history [options] <folder>'],
      ['undo', 'Usage: rpi-workbench undo [options] <folder> <messageId>'],
      ['serve', 'Usage: rpi-workbench serve [options] <folder>'],
    ] as const) {
      const run = await cli.run([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(usage);
    }
    const top = await cli.run(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Exit codes:');
    expect(top.stdout).toContain('OPENAI_API_KEY');
  });
});

describe('exit 1: the run started, then failed', () => {
  const tempFolder = useTempFolders('rpi-cli-exit1-');
  const startLlm = useFakeLlmStarter();
  const cli = useCli();

  it('a model the server does not list is only a warning; the model server refusing it during the run fails the run', async () => {
    const root = await tempFolder();
    const server = await startLlm({ models: ['fake-model'] });

    const run = await cli.run(['run', root, 'Do it', '--base-url', server.baseUrl, '--model', 'missing-model']);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`rpi-workbench: warning: The model server at ${server.baseUrl} does not list a model named "missing-model"; trying it anyway.\n`);
    expect(run.stderr).toContain(`rpi-workbench: The run failed in research: The model server at ${server.baseUrl} has no model named "missing-model" (HTTP 404).`);
    expect(run.stderr).toContain(`Resume with: rpi-workbench resume ${root}\n`);
    expect(server.chatRequests().map((request) => request.model)).toEqual(['missing-model']);
  });
});
