import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CheckpointStore } from '../engine/checkpoints/checkpointStore.js';
import type { ChangeList, FileDiff } from '../engine/contract/index.js';
import { openWorkbench, type Workbench } from '../engine/index.js';
import { ChangesService } from '../engine/changes/changesService.js';
import { diffsOffThread } from '../engine/diff/diffThread.js';
import { ConversationStore } from '../engine/store/conversation.js';
import { Workspace } from '../engine/workspace/workspace.js';
import { openStateFolder } from '../engine/workbench/stateFolder.js';
import { chromium } from '@playwright/test';
import { startBrowserHost } from '../cli/serve/browserHost.js';
import { findChromium } from '../e2e/chromium/findChromium.js';
import config from '../playwright.config.js';
import { ReferenceRunner, type ReferenceRun } from './referenceRunner.js';
import { format, median, seededRandom } from './tools.js';

const changedFiles = 2_000;
const untouchedFiles = 8_000;
const bigFileLines = 100_000;
const rounds = 5;
const messageId = 'm-bench-changes';

function sourceText(next: () => number, lines: number): string {
  return Array.from({ length: lines }, (_, index) => `export const value${index} = compute(${Math.floor(next() * 1e6)}, 'label');\n`).join('');
}

/** A tree of 10,000 small files and one of 5 MB, as it is before the request. */
async function writeBefore(root: string): Promise<string[]> {
  const next = seededRandom(11);
  const files: string[] = [];
  for (let index = 0; index < changedFiles + untouchedFiles; index += 1) {
    const file = `pkg${index % 20}/src${Math.floor(index / 20) % 10}/f${index}.ts`;
    await mkdir(path.join(root, path.dirname(file)), { recursive: true });
    await writeFile(path.join(root, file), sourceText(next, 20 + Math.floor(next() * 60)));
    files.push(file);
  }
  await writeFile(path.join(root, 'big.txt'), bigText(() => ''));
  // As a project's files are: written a while ago (files written the very second a checkpoint is taken are read again at every look).
  const anHourAgo = new Date(Date.now() - 3_600_000);
  await Promise.all([...files, 'big.txt'].map((file) => utimes(path.join(root, file), anHourAgo, anHourAgo)));
  return files;
}

/** 100,000 lines of about 50 bytes (5 MB); the request changes one line in a hundred. */
function bigText(changed: (line: number) => string): string {
  return Array.from({ length: bigFileLines }, (_, line) => `row ${line} of the big file: ${'x'.repeat(24)}${changed(line)}\n`).join('');
}

/** What the request did: 2,000 files edited (a line changed, a line added), and 1,000 lines of the big file changed. */
async function writeRequest(root: string, files: readonly string[]): Promise<void> {
  for (const file of files.slice(0, changedFiles)) {
    const full = path.join(root, file);
    const text = await readFile(full, 'utf8');
    await writeFile(full, `${text.replace('compute(', 'computeAgain(')}export const added = true;\n`);
  }
  await writeFile(path.join(root, 'big.txt'), bigText((line) => (line % 100 === 50 ? ' changed' : '')));
}

/**
 * git on the same trees, its repository kept apart from the folder (never in it), run and timed from the
 * helper process (see ReferenceRunner): the engine's process is never forked between its measurements.
 */
function shadowGit(root: string, gitDir: string, references: ReferenceRunner): (...args: string[]) => Promise<ReferenceRun> {
  const env = { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: root, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
  return (...args) => references.check('git', args, { cwd: root, env, output: true });
}

/**
 * The Changes view of a request that changed 2,000 files and a 5 MB file (1,000 of its 100,000 lines):
 * listing the changes with their line counts, and the big file's diff, each against `git diff --stat` and
 * `git diff -- big.txt` on the same two trees (the before tree committed in a shadow repository, the
 * after tree in the working tree). Each engine measurement opens the folder afresh, so nothing is cached.
 */
export async function benchChanges(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-changes-'));
  const gitDir = `${root}.git`;
  const references = ReferenceRunner.start();
  try {
    const files = await writeBefore(root);
    const git = shadowGit(root, gitDir, references);
    await git('init', '-q');
    await writeFile(path.join(gitDir, 'info', 'exclude'), '.workbench/\n');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'before');
    const state = await openStateFolder(root);
    const checkpoints = await CheckpointStore.open(root, state.dir);
    await checkpoints.snapshot({ reason: 'run', messageId });
    await new ConversationStore(state.dir).append({ id: messageId, role: 'user', text: 'Change 2,000 files and the big one', ts: Date.now() });
    await state.close();
    await writeRequest(root, files);

    /** Times `use` on a workbench opened afresh (the opening not timed), so nothing it counted before helps it. */
    const onFreshWorkbench = async <T>(use: (workbench: Workbench) => Promise<T>): Promise<{ ms: number; value: T }> => {
      const workbench = await openWorkbench(root);
      try {
        const start = performance.now();
        const value = await use(workbench);
        return { ms: performance.now() - start, value };
      } finally {
        await workbench.close();
      }
    };
    const timedGit = async (...args: string[]) => (await git(...args)).ms;
    // Warm, as in the app: the checkpoint store has scanned the folder before (a run takes checkpoints all
    // along), but the line counts are computed anew each round (a new ChangesService).
    const warmState = await openStateFolder(root);
    const warmStore = await CheckpointStore.open(root, warmState.dir);
    const workspace = await Workspace.at(root);
    const conversation = new ConversationStore(warmState.dir);
    await warmStore.changesSince((await warmStore.list())[0]!.id);
    const onWarmStore = async <T>(use: (changes: ChangesService) => Promise<T>): Promise<number> => {
      const changes = new ChangesService({ workspace, checkpoints: warmStore, conversation, broker: { requestOf: () => null }, emit: () => undefined });
      const start = performance.now();
      await use(changes);
      return performance.now() - start;
    };
    const times: Record<'ourList' | 'gitList' | 'ourDiff' | 'gitDiff' | 'warmList' | 'warmDiff', number[]> = { ourList: [], gitList: [], ourDiff: [], gitDiff: [], warmList: [], warmDiff: [] };
    let list: ChangeList | undefined;
    let big: FileDiff | undefined;
    for (let round = 0; round < rounds; round += 1) {
      const listed = await onFreshWorkbench((workbench) => workbench.request('changes:list', { messageId }));
      times.ourList.push(listed.ms);
      list = listed.value;
      times.gitList.push(await timedGit('diff', '--stat'));
      const diffed = await onFreshWorkbench((workbench) => workbench.request('changes:file', { messageId, path: 'big.txt' }));
      times.ourDiff.push(diffed.ms);
      big = diffed.value;
      times.gitDiff.push(await timedGit('diff', '--', 'big.txt'));
      times.warmList.push(await onWarmStore((changes) => changes.list(messageId)));
      times.warmDiff.push(await onWarmStore((changes) => changes.fileDiff(messageId, 'big.txt')));
    }
    await warmState.close();
    if (!list || !big) return;
    const [ourList, gitList, ourDiff, gitDiff, warmList, warmDiff] = [times.ourList, times.gitList, times.ourDiff, times.gitDiff, times.warmList, times.warmDiff].map(median) as [number, number, number, number, number, number];
    const gitStat = (await git('diff', '--stat')).stdout.trim().split('\n').at(-1);

    console.log(`changes of one request: ${list.totals.files.toLocaleString('en-US')} files changed (+${list.totals.added.toLocaleString('en-US')} −${list.totals.removed.toLocaleString('en-US')}), one of them 5 MB; median of ${rounds}`);
    console.log(`  git agrees on the counts: ${gitStat}`);
    const row = (what: string, ours: number, reference: string, theirs: number, goal?: number) =>
      console.log(`  ${what.padEnd(34)} engine ${format(ours).padStart(10)}   ${reference} ${format(theirs).padStart(9)}   ratio ${(ours / theirs).toFixed(2)}×${goal === undefined ? '' : `   goal ≤ ${goal}×`}`);
    row('list the changes, folder just open', ourList, 'git diff --stat      ', gitList, 3);
    row('list the changes, store warm', warmList, 'git diff --stat      ', gitList, 2);
    row('the 5 MB diff, folder just open', ourDiff, 'git diff -- big.txt  ', gitDiff);
    row('the 5 MB diff, store warm', warmDiff, 'git diff -- big.txt  ', gitDiff);
    console.log(`  goal: diffs of files over 1 MB off the engine's thread: ${diffsOffThread().computed > 0 ? `yes, ${diffsOffThread().computed} computed on the diff worker` : 'NO, none computed on the diff worker'}`);
    console.log(`  big.txt: +${big.added} −${big.removed} in ${big.hunks.length} hunks, ${big.wholeFile ? 'every line kept' : 'three lines of context'}${big.approximate ? ', approximate' : ''}`);
    console.log('  "just open": a workbench opened afresh (the opening not timed): the checkpoint read, the folder scanned, every changed file read and diffed');
    console.log('  "store warm": the checkpoint store had scanned the folder before, as during and after a run; the line counts computed anew');
    await scrollFrames(root);
  } finally {
    references.close();
    await rm(root, { recursive: true, force: true });
    await rm(gitDir, { recursive: true, force: true });
  }
}

/**
 * The Changes view of that request in Chromium, through the browser host: its list of 2,000 files flung
 * from top to bottom, 200 px a frame, as a fast wheel scroll does; the frame times say whether the UI
 * stays responsive (16.7 ms is every frame at 60 Hz). Plain source text for the page, as tsx would wrap
 * named functions in a helper the page lacks.
 */
const flingFrames = 240;
const flingPx = 200;
const flingScript = `(async ([frames, px]) => {
  const list = document.querySelector('[data-testid="changes-list"]');
  if (!list) throw new Error('no changes list');
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let last = await nextFrame();
  const times = [];
  for (let frame = 0; frame < frames; frame += 1) {
    list.scrollTop += px;
    const now = await nextFrame();
    times.push(now - last);
    last = now;
  }
  return times;
})([${flingFrames}, ${flingPx}])`;

async function scrollFrames(root: string): Promise<void> {
  const browserPath = findChromium({ usedBy: 'the changes bench' });
  if (!browserPath.found) {
    console.log(`  frames: skipped (${browserPath.message})`);
    return;
  }
  const rendererDir = path.resolve('dist/renderer');
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    console.log('  frames: skipped (no built renderer in dist/renderer: `npm run build` first)');
    return;
  }
  const configDir = await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-changes-config-'));
  const host = await startBrowserHost({ folder: root, rendererDir, configDir, env: { OPENAI_API_KEY: '' } });
  const browser = await chromium.launch({ ...config.use?.launchOptions, executablePath: browserPath.path, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    await page.locator('.changes-open').first().click();
    await page.locator('[data-testid="changes-file"]').first().waitFor();
    const times = await page.evaluate<number[]>(flingScript);
    const sorted = [...times].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
    const drawn = await page.locator('[data-testid="changes-file"]').count();
    console.log(
      `  frames flinging the Changes list (${flingFrames} frames, ${flingPx} px each): median ${at(50).toFixed(1)} ms, p95 ${at(95).toFixed(1)} ms, ` +
        `longest ${(sorted.at(-1) ?? 0).toFixed(1)} ms; ${drawn} file rows in the page for ${changedFiles.toLocaleString('en-US')}+ files (virtualised)`,
    );
  } finally {
    await browser.close();
    await host.close();
    await rm(configDir, { recursive: true, force: true });
  }
}
