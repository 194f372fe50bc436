import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { cliBin, useCli, watched } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const esc = '\u001b';
const scriptBin = '/usr/bin/script';

interface JsonFile {
  path: string;
  oldPath?: string;
  status: string;
  added: number;
  removed: number;
  binary: boolean;
  patch: string;
}

// Each test starts the CLI up to six times (one or two whole runs among them), a process of its own each: with
// two test files at a time on a loaded two-core machine that came to the default 20 s. Nothing here waits on time.
describe('diff and revert on the command line', { timeout: 60_000 }, () => {
  const tempFolder = useTempFolders('rpi-cli-diff-');
  const llm = useFakeLlm();
  const cli = useCli({ nodeReports: true });
  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  /** A folder after one run that edited README.md, created src/greeting.ts (with an escape sequence in it), and made a file by command. */
  async function afterARun() {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n', 'src/index.ts': 'export const version = 1;\n', 'logo.bin': 'PNG\0\0\0' });
    llm().enqueue(
      say('A README and an index.'),
      say(planText('Greeting')),
      call('write_file', { path: 'src/greeting.ts', content: `export const hi = "hi";\nconst trap = "${esc}]0;owned${'\u0007'}";\n` }),
      call('edit_file', { path: 'README.md', old_text: '# demo', new_text: '# demo\n\nSays hi.' }),
      call('run_command', { command: 'printf "built\\n" > build.txt && printf "PNG\\0\\1" > logo.bin' }),
      say('Added the greeting.'),
      say('Added src/greeting.ts.'),
    );
    const run = await cli.run(['run', root, 'Add a greeting', '--yes', ...model()]);
    expect(run.code).toBe(0);
    const history = await cli.run(['history', root, '--json']);
    const [request, answer] = history.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: string });
    return { root, requestId: request!.id, answerId: answer!.id };
  }

  it('diff prints the latest request as a git-style unified diff, plain when piped, control characters shown', async () => {
    const { root } = await afterARun();
    const diff = await cli.run(['diff', root]);
    expect(diff).toMatchObject({ code: 0, stderr: '' });
    expect(diff.stdout).not.toContain(esc);
    expect(diff.stdout).toBe(
      [
        'diff --git a/README.md b/README.md',
        '--- a/README.md',
        '+++ b/README.md',
        '@@ -1 +1,3 @@',
        ' # demo',
        '+',
        '+Says hi.',
        'diff --git a/build.txt b/build.txt',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/build.txt',
        '@@ -0,0 +1 @@',
        '+built',
        'diff --git a/logo.bin b/logo.bin',
        'Binary files a/logo.bin and b/logo.bin differ',
        'diff --git a/src/greeting.ts b/src/greeting.ts',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/src/greeting.ts',
        '@@ -0,0 +1,2 @@',
        '+export const hi = "hi";',
        '+const trap = "␛]0;owned␇";',
        '',
      ].join('\n'),
    );
  });

  it('--stat counts per file with a bar, then the totals; a summary stands for its request', async () => {
    const { root, answerId } = await afterARun();
    const stat = await cli.run(['diff', root, answerId, '--stat']);
    expect(stat.code).toBe(0);
    expect(stat.stdout).toBe(
      [
        ' README.md       |   2 ++',
        ' build.txt       |   1 +',
        ' logo.bin        | Bin 6 -> 5 bytes',
        ' src/greeting.ts |   2 ++',
        ' 4 files changed, 5 insertions(+)',
        '',
      ].join('\n'),
    );
  });

  it('--json gives {path, status, added, removed, binary, patch} per line, with the exact text', async () => {
    const { root, requestId } = await afterARun();
    const json = await cli.run(['diff', root, requestId, '--json']);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toContain(esc);
    const files = json.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as JsonFile);
    expect(files.map(({ path: file, status, added, removed, binary }) => ({ file, status, added, removed, binary }))).toEqual([
      { file: 'README.md', status: 'modified', added: 2, removed: 0, binary: false },
      { file: 'build.txt', status: 'added', added: 1, removed: 0, binary: false },
      { file: 'logo.bin', status: 'modified', added: 0, removed: 0, binary: true },
      { file: 'src/greeting.ts', status: 'added', added: 2, removed: 0, binary: false },
    ]);
    expect(files[3]!.patch).toContain(`+const trap = "${esc}]0;owned\u0007";\n`);
  });

  it.skipIf(!existsSync(scriptBin))('on a terminal the diff and the stat are coloured as git colours them; NO_COLOR turns it off', async () => {
    const { root } = await afterARun();
    const onTerminal = (args: string[], env: Record<string, string> = {}) => {
      const child = spawn(scriptBin, ['-qefc', quote([process.execPath, cliBin, ...args]), '/dev/null'], { env: cli.environment(env), stdio: ['ignore', 'pipe', 'pipe'] });
      cli.track(child);
      return watched(child).exited;
    };
    const coloured = (await onTerminal(['diff', root])).stdout;
    expect(coloured).toContain(`${esc}[1mdiff --git a/README.md b/README.md${esc}[m\r\n`);
    expect(coloured).toContain(`${esc}[36m@@ -1 +1,3 @@${esc}[m\r\n # demo\r\n${esc}[32m+${esc}[m\r\n${esc}[32m+Says hi.${esc}[m`);
    expect(coloured).toContain('"␛]0;owned␇"');
    expect((await onTerminal(['diff', root, '--stat'])).stdout).toContain(` README.md       |   2 ${esc}[32m++${esc}[m\r\n`);
    expect((await onTerminal(['diff', root], { NO_COLOR: '1' })).stdout).not.toContain(`${esc}[`);
  });

  it('an earlier request shows its own changes, up to the next request; --since everything after it', async () => {
    const { root, requestId } = await afterARun();
    llm().enqueue(say('Files.'), say(planText('More')), call('write_file', { path: 'README.md', content: '# demo, again\n' }), say('done'), say('Again.'));
    expect((await cli.run(['run', root, 'Change the title', '--yes', ...model()])).code).toBe(0);

    const first = await cli.run(['diff', root, requestId, '--stat']);
    expect(first.stdout).toContain(' README.md       |   2 ++\n');
    const latest = await cli.run(['diff', root, '--stat']);
    expect(latest.stdout).toBe(' README.md | 4 +---\n 1 file changed, 1 insertion(+), 3 deletions(-)\n');
    const since = await cli.run(['diff', root, requestId, '--since', '--stat']);
    expect(since.stdout).toContain(' README.md       |   2 +-\n');
  });

  it('revert puts files back as before the request, and diff no longer lists them', async () => {
    const { root, requestId } = await afterARun();
    const revert = await cli.run(['revert', root, requestId, 'README.md', 'src/greeting.ts']);
    expect(revert.code).toBe(0);
    expect(revert.stdout).toBe(
      'Reverted 2 files to before that request:\n  restored   README.md\n  removed    src/greeting.ts\nA checkpoint was taken first: undoing the latest request also takes this revert back.\n',
    );
    expect(await readFile(path.join(root, 'README.md'), 'utf8')).toBe('# demo\n');
    expect(existsSync(path.join(root, 'src', 'greeting.ts'))).toBe(false);
    expect((await cli.run(['diff', root, '--stat'])).stdout).toBe(' build.txt |   1 +\n logo.bin  | Bin 6 -> 5 bytes\n 2 files changed, 1 insertion(+)\n');
  });

  it('unknown messages and files are usage errors (exit 2), changing nothing; an empty folder has nothing to diff', async () => {
    const { root, requestId } = await afterARun();
    expect(await cli.run(['diff', root, 'm-nope'])).toMatchObject({ code: 2, stderr: 'rpi-workbench: There is no message "m-nope" in this folder\'s conversation.\n' });
    expect(await cli.run(['revert', root, requestId, 'nothing.txt'])).toMatchObject({
      code: 2,
      stderr: 'rpi-workbench: There is no file "nothing.txt", before that request or now.\n',
    });
    expect((await cli.run(['revert', root, requestId])).code).toBe(2);
    const empty = await tempFolder();
    expect(await cli.run(['diff', empty])).toMatchObject({ code: 0, stdout: '', stderr: `No requests yet in ${empty}, so nothing changed.\n` });
  });
});
