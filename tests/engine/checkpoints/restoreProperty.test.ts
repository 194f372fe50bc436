import { execFileSync } from 'node:child_process';
import { appendFile, chmod, mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { writeTree } from '../../support/tempFolder.js';
import { runTag, toolTag } from './checkpointFixture.js';
import { folderDigest } from './folderDigest.js';

/**
 * Paths the operations pick from. Some are folders of others ('d' and 'd/x'), so a run can turn files
 * into folders and back; all are safe in a shell command unquoted.
 */
const paths = ['a', 'b.txt', 'c.sh', 'd', 'd/x', 'd/y.txt', 'e/z', 'e/f/g', 'f', 'f/h.txt'] as const;
const pathArb = fc.constantFrom(...paths);
const modeArb = fc.constantFrom(0o644, 0o755, 0o600, 0o700, 0o640, 0o4755);
const contentArb = fc.oneof(
  fc.constantFrom('', 'alpha\nbeta\n', 'alpha\n', 'no newline at end'),
  fc.string({ maxLength: 40 }),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

type Op =
  | { kind: 'write'; path: string; content: string | Buffer }
  | { kind: 'edit'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'move'; from: string; to: string }
  | { kind: 'chmod'; path: string; mode: number }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'shell'; command: string }
  | { kind: 'snapshot' };

const shellArb = fc.oneof(
  pathArb.map((p) => `rm -f ${p}`),
  pathArb.map((p) => `rm -rf ${p}`),
  fc.tuple(pathArb, pathArb).map(([from, to]) => `mv ${from} ${to}`),
  pathArb.map((p) => `sed -i 's/alpha/ALPHA/g; s/a/4/' ${p}`),
  pathArb.map((p) => `mkdir -p ${p}`),
  pathArb.map((p) => `chmod +x ${p}`),
  pathArb.map((p) => `chmod -x ${p}`),
  pathArb.map((p) => `printf 'made by a command\\n' > ${p}`),
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), path: pathArb, content: contentArb }),
  fc.record({ kind: fc.constant('edit' as const), path: pathArb, content: fc.constantFrom('\nappended\n', 'x', 'alpha') }),
  fc.record({ kind: fc.constant('delete' as const), path: pathArb }),
  fc.record({ kind: fc.constant('move' as const), from: pathArb, to: pathArb }),
  fc.record({ kind: fc.constant('chmod' as const), path: pathArb, mode: modeArb }),
  fc.record({ kind: fc.constant('symlink' as const), path: pathArb, target: fc.constantFrom('b.txt', 'd', 'nowhere', '../b.txt') }),
  fc.record({ kind: fc.constant('shell' as const), command: shellArb }),
  fc.constant({ kind: 'snapshot' as const }),
);

interface Tree {
  files: { path: string; content: string | Buffer; mode: number }[];
  emptyFolders: string[];
  link: { path: string; target: string } | undefined;
}

const treeArb: fc.Arbitrary<Tree> = fc.record({
  files: fc.array(fc.record({ path: pathArb, content: contentArb, mode: modeArb }), { maxLength: 6 }),
  emptyFolders: fc.subarray(['empty', 'e/empty']),
  link: fc.option(fc.record({ path: pathArb, target: fc.constantFrom('b.txt', 'd', 'nowhere') }), { nil: undefined }),
});

/** Does what `op` says the way a tool or an agent's command would, ignoring failures (a path that is not there, say). */
async function apply(root: string, op: Exclude<Op, { kind: 'shell' | 'snapshot' }>): Promise<void> {
  const at = (relPath: string) => path.join(root, relPath);
  try {
    switch (op.kind) {
      case 'write':
        await mkdir(path.dirname(at(op.path)), { recursive: true });
        return await writeFile(at(op.path), op.content);
      case 'edit':
        return await appendFile(at(op.path), op.content, { flag: 'r+' }).catch(() => appendFile(at(op.path), op.content));
      case 'delete':
        return await rm(at(op.path), { recursive: true, force: true });
      case 'move':
        await mkdir(path.dirname(at(op.to)), { recursive: true });
        return await rename(at(op.from), at(op.to));
      case 'chmod':
        return await chmod(at(op.path), op.mode);
      case 'symlink':
        return await symlink(op.target, at(op.path));
    }
  } catch {
    // like a tool call that failed: the folder stays as it is
  }
}

/** Runs consecutive shell operations as one script, so a run spawns a shell a few times at most. */
function runCommands(root: string, commands: string[]): void {
  if (commands.length === 0) return;
  execFileSync('sh', ['-c', commands.map((command) => `{ ${command}; } 2>/dev/null || true`).join('\n')], { cwd: root });
}

async function buildTree(root: string, tree: Tree): Promise<void> {
  await writeTree(root, { '.gitignore': '*.log\nignored/\n', 'keep.log': 'ignored log\n', 'ignored/dep.js': 'ignored dependency\n', '.git/HEAD': 'ref: refs/heads/main\n' });
  for (const file of tree.files) {
    await apply(root, { kind: 'write', path: file.path, content: file.content });
    await apply(root, { kind: 'chmod', path: file.path, mode: file.mode });
  }
  for (const folder of tree.emptyFolders) await mkdir(path.join(root, folder), { recursive: true }).catch(() => undefined);
  if (tree.link) await apply(root, { kind: 'symlink', ...tree.link });
}

describe.skipIf(process.platform === 'win32')('CheckpointStore, property: restore undoes any sequence of changes', () => {
  it('brings back the exact tree (content hashes, modes, symlinks, folders) after random writes, edits, deletes, moves and shell commands', async () => {
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(treeArb, fc.array(opArb, { minLength: 1, maxLength: 10 }), fc.nat(), async (tree, ops, pick) => {
        const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'rpi-checkpoints-prop-')));
        try {
          await buildTree(root, tree);
          const store = await CheckpointStore.open(root, path.join(root, '.workbench'));
          const checkpoints = [{ id: (await store.snapshot(runTag)).id, digest: await folderDigest(root) }];

          let commands: string[] = [];
          for (const op of ops) {
            if (op.kind === 'shell') {
              commands.push(op.command);
              continue;
            }
            runCommands(root, commands);
            commands = [];
            if (op.kind === 'snapshot') checkpoints.push({ id: (await store.snapshot(toolTag)).id, digest: await folderDigest(root) });
            else await apply(root, op);
          }
          runCommands(root, commands);

          const [first] = checkpoints;
          const preview = await store.changesSince(first!.id);
          expect(await store.restore(first!.id)).toEqual(preview);
          expect(await folderDigest(root)).toEqual(first!.digest);
          expect(await store.changesSince(first!.id)).toEqual([]);

          const other = checkpoints[pick % checkpoints.length]!;
          await store.restore(other.id);
          expect(await folderDigest(root)).toEqual(other.digest);
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 200 },
    );
    console.log(`restore property: 200 runs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 120_000);
});
