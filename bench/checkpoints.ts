import { spawnSync } from 'node:child_process';
import { access, appendFile, lstat, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CheckpointStore } from '../engine/checkpoints/checkpointStore.js';
import { walkFiles } from '../engine/workspace/walkFiles.js';
import { format, median, seededRandom } from './tools.js';

/** Bump when the generated tree changes, so a stale cached tree is not reused. */
const treeVersion = 'v1';
const fileTarget = 20_000;
const changedPerRound = 10;
const rounds = 9;

/** Mostly small source files, some medium, a few large, the odd very large one. */
function fileSize(next: () => number): number {
  const roll = next();
  if (roll < 0.0005) return 2_000_000 + Math.floor(next() * 6_000_000);
  if (roll < 0.02) return 64_000 + Math.floor(next() * 300_000);
  if (roll < 0.25) return 8_000 + Math.floor(next() * 32_000);
  return 200 + Math.floor(next() * 7_800);
}

function fileText(next: () => number, bytes: number): string {
  const line = `export const value${Math.floor(next() * 1e6)} = computeSomething(${Math.floor(next() * 1e6)}, 'label');\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

/**
 * 20,000 files git would see in nested packages (10 to 14 per folder, three levels deep), plus what it
 * would not: an ignored node_modules/ and *.log files.
 */
async function generateTree(root: string): Promise<void> {
  const next = seededRandom(7);
  await mkdir(root, { recursive: true });
  await writeFile(path.join(root, '.gitignore'), 'node_modules/\n*.log\n');
  let files = 1;
  for (let folder = 0; files < fileTarget; folder += 1) {
    const dir = path.join(root, `pkg${folder % 24}`, `src${Math.floor(folder / 24) % 6}`, `mod${folder}`);
    await mkdir(dir, { recursive: true });
    const count = Math.min(10 + Math.floor(next() * 5), fileTarget - files);
    await Promise.all(Array.from({ length: count }, (_, index) => writeFile(path.join(dir, `f${index}.ts`), fileText(next, fileSize(next)))));
    if (folder % 20 === 0) await writeFile(path.join(dir, 'build.log'), fileText(next, 5_000));
    files += count;
  }
  const ignored = path.join(root, 'node_modules', 'dep');
  await mkdir(ignored, { recursive: true });
  await Promise.all(Array.from({ length: 2_000 }, (_, index) => writeFile(path.join(ignored, `m${index}.js`), fileText(next, 3_000))));
}

/** The generated tree, reused from an earlier run of the same version (it takes a while to write). */
async function benchTree(): Promise<string> {
  const root = path.join(os.tmpdir(), `rpi-bench-checkpoints-${treeVersion}`);
  const done = `${root}.complete`;
  if (await access(done).then(() => true, () => false)) return root;
  await rm(root, { recursive: true, force: true });
  console.log(`bench: writing a ${fileTarget.toLocaleString('en-US')}-file tree to ${root} (kept for later runs)…`);
  await generateTree(root);
  await writeFile(done, '');
  return root;
}

/**
 * A git repository kept apart from the tree (as a shadow-git checkpointer keeps one), never the user's .git.
 * Its automatic gc is off: after the first commit's 20,000 objects it would pack them in a detached
 * process, running beside the measurements that follow (the engine's first checkpoint among them) and
 * still writing into the repository when the bench removes it.
 */
function shadowGit(root: string, gitDir: string): (script: string) => void {
  const env = {
    ...process.env,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: root,
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'gc.auto',
    GIT_CONFIG_VALUE_0: '0',
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
  };
  return (script) => {
    const run = spawnSync('sh', ['-c', script], { cwd: root, env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`git failed: ${run.stderr}`);
  };
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Bytes of the files a checkpoint records: what walkFiles yields (ignored files and .workbench/ left out). */
async function recordedBytes(root: string): Promise<number> {
  let total = 0;
  for await (const { relPath } of walkFiles(root)) total += (await lstat(path.join(root, relPath))).size;
  return total;
}

async function timed(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * An incremental checkpoint of a 20,000-file tree with 10 files changed, against a shadow git repository
 * doing `git add -A && git commit` on the same tree: both record the same 10 changes each round, in
 * alternating order.
 */
export async function benchCheckpoints(): Promise<void> {
  const root = await benchTree();
  const stateDir = path.join(root, '.workbench');
  const gitDir = path.join(os.tmpdir(), `rpi-bench-checkpoints-shadow-${process.pid}.git`);
  await rm(stateDir, { recursive: true, force: true });
  try {
    const git = shadowGit(root, gitDir);
    const gitFirstMs = await timed(() => {
      git('git init -q');
      git(`printf '.workbench/\\n' >> "${path.join(gitDir, 'info', 'exclude')}" && git add -A && git commit -q -m initial`);
    });
    const store = await CheckpointStore.open(root, stateDir);
    const tag = { reason: 'tool', messageId: 'bench' } as const;
    const firstStart = performance.now();
    const first = await store.snapshot(tag);
    const firstMs = performance.now() - firstStart;
    const [firstBytes, gitFirstBytes] = [await folderBytes(path.join(stateDir, 'checkpoints')), await folderBytes(gitDir)];
    const trackedBytes = await recordedBytes(root);

    const next = seededRandom(99);
    const ours: number[] = [];
    const theirs: number[] = [];
    let hashed = 0;
    for (let round = 0; round < rounds; round += 1) {
      for (let change = 0; change < changedPerRound; change += 1) {
        const folder = Math.floor(next() * 1_600);
        const dir = path.join(root, `pkg${folder % 24}`, `src${Math.floor(folder / 24) % 6}`, `mod${folder}`);
        await appendFile(path.join(dir, 'f0.ts'), `// round ${round} change ${change}\n`);
      }
      const snapshot = async () => {
        const info = await store.snapshot(tag);
        hashed += info.hashedFiles;
      };
      const commit = () => git('git add -A && git commit -q -m x');
      if (round % 2 === 0) {
        ours.push(await timed(snapshot));
        theirs.push(await timed(commit));
      } else {
        theirs.push(await timed(commit));
        ours.push(await timed(snapshot));
      }
    }
    const [ourMs, gitMs] = [median(ours), median(theirs)];
    const perRound = (bytes: number, before: number) => `${((bytes - before) / rounds / 1024).toFixed(0)} KB`;
    const storeBytes = await folderBytes(path.join(stateDir, 'checkpoints'));
    const gitBytes = await folderBytes(gitDir);
    console.log(`checkpoint, ${first.fileCount.toLocaleString('en-US')} files (node_modules/ and *.log ignored), ${changedPerRound} changed per round, median of ${rounds}`);
    console.log(`  engine snapshot              ${format(ourMs)}  (files read per round: ${(hashed / rounds).toFixed(1)}; first checkpoint ${format(firstMs)})`);
    console.log(`  git add -A && git commit     ${format(gitMs)}  (shadow repository; first commit ${format(gitFirstMs)})`);
    console.log(`  ratio engine / git           ${(ourMs / gitMs).toFixed(2)}×`);
    console.log(`  tree: ${mb(trackedBytes)} in the files a checkpoint records; store after all rounds ${mb(storeBytes)} = ${(storeBytes / trackedBytes).toFixed(2)}× the tree`);
    console.log(`  disk: first checkpoint ${mb(firstBytes)}, then ${perRound(storeBytes, firstBytes)} each (gzip level 1 where it pays); git ${mb(gitFirstBytes)}, then ${perRound(gitBytes, gitFirstBytes)} each (zlib)`);
    console.log(`  store ÷ git's: ${(storeBytes / gitBytes).toFixed(2)}× after all rounds (goal ≤ 2×); first checkpoint ÷ first commit: ${(firstMs / gitFirstMs).toFixed(2)}× the time (goal ≤ 1×)`);
  } finally {
    await rm(gitDir, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  }
}
