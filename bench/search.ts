import { spawnSync } from 'node:child_process';
import { access, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { candidateFiles } from '../engine/tools/search/candidateFiles.js';
import { searchWorkersStarted } from '../engine/tools/search/workerShelf.js';
import { searchFiles } from '../engine/tools/searchFiles.js';
import { ReferenceRunner } from './referenceRunner.js';
import { benchToolContext, ensureRipgrep, format, interleavedMedians, seededRandom } from './tools.js';

/** Bump when the generated tree changes, so a stale cached tree is not reused. */
const treeVersion = 'v1';
const targetBytes = 200 * 1024 * 1024;
const pattern = 'retry(Count|Delay)\\s*=\\s*\\d+';
/** search_files against rg (issue 28): warm, on a first call, and on the first of a new process. */
const goal = 1.5;
const plantedLine = (n: number) => `    const retry${n % 2 ? 'Count' : 'Delay'} = ${n % 900};`;

const words = ('user account order item cart price total amount value count index list map set queue cache store state ' +
  'event handler request response client server session token config option setting path file folder name label title ' +
  'message error result status level range limit offset page size width height color style theme layout view model ' +
  'record field column row table query filter sort group key hash node tree edge graph parse render format load save').split(' ');

/** Source-like lines: declarations, calls, conditions, comments, imports, closing braces. */
function linePool(next: () => number, count: number): string[] {
  const word = () => words[Math.floor(next() * words.length)]!;
  const Word = () => word().replace(/^./, (c) => c.toUpperCase());
  const templates = [
    () => `  const ${word()}${Word()} = ${word()}${Word()}(${word()}, ${Math.floor(next() * 1000)});`,
    () => `  if (${word()}.${word()} > ${Math.floor(next() * 100)}) return ${word()}${Word()};`,
    () => `  // ${word()} ${word()} ${word()} ${word()} ${word()} ${word()} ${word()}`,
    () => `import { ${Word()}${Word()} } from './${word()}/${word()}${Word()}.js';`,
    () => `export function ${word()}${Word()}(${word()}: ${Word()}, ${word()}: number): ${Word()} | null {`,
    () => `    ${word()}${Word()}.push({ ${word()}: ${word()}, ${word()}: '${word()} ${word()}' });`,
    () => '  }',
    () => '',
  ];
  return Array.from({ length: count }, () => templates[Math.floor(next() * templates.length)]!());
}

function fileText(next: () => number, lines: readonly string[], bytes: number, plant: boolean): string {
  const out: string[] = [];
  let size = 0;
  const plantAt = plant ? Math.floor(next() * (bytes / 40)) : -1;
  while (size < bytes) {
    const line = out.length === plantAt ? plantedLine(out.length) : lines[Math.floor(next() * lines.length)]!;
    out.push(line);
    size += line.length + 1;
  }
  return `${out.join('\n')}\n`;
}

/** Mostly small files, some medium, a few large; the odd one is very large. */
function fileSize(next: () => number): number {
  const roll = next();
  if (roll < 0.0003) return 4_000_000 + Math.floor(next() * 6_000_000);
  if (roll < 0.02) return 64_000 + Math.floor(next() * 500_000);
  if (roll < 0.27) return 8_000 + Math.floor(next() * 32_000);
  return 300 + Math.floor(next() * 7_700);
}

/**
 * About 200 MB of searchable source in nested packages, plus what must not be searched: an ignored
 * node_modules/, generated files ignored by nested .gitignore files, and binary files; all of them hold
 * matches too, so a search that reads them reports a different count from ripgrep.
 */
async function generateTree(root: string): Promise<void> {
  const next = seededRandom(42);
  const lines = linePool(next, 20_000);
  await mkdir(root, { recursive: true });
  await writeFile(path.join(root, '.gitignore'), 'node_modules/\n*.log\n');
  let written = 0;
  for (let folder = 0; written < targetBytes; folder += 1) {
    const dir = path.join(root, `pkg${folder % 40}`, `src${Math.floor(folder / 40) % 8}`, `mod${folder}`);
    await mkdir(dir, { recursive: true });
    if (folder % 25 === 0) {
      await writeFile(path.join(dir, '.gitignore'), '*.gen.ts\n');
      await writeFile(path.join(dir, 'schema.gen.ts'), fileText(next, lines, 20_000, true));
    }
    if (folder % 30 === 0) await writeFile(path.join(dir, 'icon.bin'), Buffer.concat([Buffer.from([0x89, 0, 1, 2]), Buffer.from(fileText(next, lines, 30_000, true))]));
    const files = Array.from({ length: 12 }, (_, index) =>
      index === 11 ? { name: 'trace.log', size: 2_000, plant: true } : { name: `f${index}.ts`, size: fileSize(next), plant: next() < 0.03 },
    );
    await Promise.all(files.map((file) => writeFile(path.join(dir, file.name), fileText(next, lines, file.size, file.plant))));
    written += files.reduce((sum, file) => sum + file.size, 0);
  }
  const ignored = path.join(root, 'node_modules', 'dep');
  await mkdir(ignored, { recursive: true });
  await Promise.all(Array.from({ length: 400 }, (_, index) => writeFile(path.join(ignored, `m${index}.js`), fileText(next, lines, 50_000, true))));
}

/** The generated tree, reused from an earlier run of the same version (it takes a while to write). */
async function benchTree(): Promise<string> {
  const root = path.join(os.tmpdir(), `rpi-bench-search-${treeVersion}`);
  const done = `${root}.complete`;
  if (await access(done).then(() => true, () => false)) return root;
  await rm(root, { recursive: true, force: true });
  console.log(`bench: writing a ~200 MB tree to ${root} (kept for later runs)…`);
  await generateTree(root);
  await writeFile(done, '');
  return root;
}

/** The files a search of `root` reads (.gitignore honoured) and their total size. */
async function searchedSize(root: string): Promise<{ files: number; mb: string }> {
  let files = 0;
  let bytes = 0;
  for await (const run of candidateFiles({ root, from: '', signal: new AbortController().signal })) {
    for (const relPath of run) {
      files += 1;
      bytes += (await stat(path.join(root, relPath))).size;
    }
  }
  return { files, mb: (bytes / 1024 / 1024).toFixed(0) };
}

/**
 * search_files on the tree against `rg` on the same tree, median of 5 runs each, page cache warm for both;
 * rg is run from a helper process, so the engine's process is not forked between its searches (see ReferenceRunner).
 * The first run starts the workers; in the engine they are already started by then, warmed while the
 * model thinks (see ModelTurns.ask), which the line after it shows.
 */
export async function benchSearch(): Promise<void> {
  const rg = ensureRipgrep();
  const root = await benchTree();
  const context = await benchToolContext(root);
  const args = searchFiles.parameters.parse({ pattern, max_results: 1000 });
  const engine = () => searchFiles.run(args, context);
  const rgArgs = ['--hidden', '--no-require-git', pattern, root];
  const references = ReferenceRunner.start();
  const reference = () => references.run(rg, rgArgs);
  try {
    // Once through rg, untimed, so the tree is in the page cache for both: the first run measures starting
    // the workers, not reading a tree from disk that rg then finds in memory.
    await reference();
    const coldStart = performance.now();
    const ours = Number(/^([\d,]+) matching lines? in/.exec((await engine()).text)?.[1]?.replace(/,/g, '') ?? NaN);
    const coldMs = performance.now() - coldStart;
    const coldWorkers = searchWorkersStarted();
    const theirs = (await references.run(rg, rgArgs, { output: true })).stdout.split('\n').filter(Boolean).length;
    const [engineMs = 0, rgMs = 0] = await interleavedMedians(5, [engine, reference]);
    const warmedMs = await firstSearchAfterWarming(root, () => references.run(rg, rgArgs));
    const searched = await searchedSize(root);
    console.log(`search /${pattern}/, ${searched.files.toLocaleString('en-US')} files, ${searched.mb} MB not ignored (reference: rg ${rgArgs.slice(0, 2).join(' ')} PATTERN ROOT)`);
    console.log(`  engine search_files  ${format(engineMs)}  (${ours} matching lines)`);
    console.log(`  rg                   ${format(rgMs)}  (${theirs} matching lines)`);
    console.log(`  ratio engine / rg    ${(engineMs / rgMs).toFixed(2)}×  (goal ≤ ${goal}×; median of 5, run in turns)`);
    console.log(`  first run, starting its ${coldWorkers} workers: ${format(coldMs)}, ${(coldMs / rgMs).toFixed(2)}× the rg median  (goal ≤ ${goal}×)`);
    console.log(`  first search of a new process, after the phase's file map and with its workers warmed, as in a run: ${format(warmedMs.engine)}, rg ${format(warmedMs.rg)}, ${(warmedMs.engine / warmedMs.rg).toFixed(2)}×  (goal ≤ ${goal}×)`);
    console.log(`  workers started in all: ${searchWorkersStarted()}`);
    console.log(`  match counts ${ours === theirs ? 'agree' : 'DIFFER'}`);
  } finally {
    references.close();
  }
}

/**
 * The first search of a fresh process as a phase of a run meets it: the phase's manifest built (the file
 * map, depth 3, which Research and Implement start from: see runRpi) and the workers warmed while the
 * model thinks (see ModelTurns.ask), a second of thinking; beside rg run right after it.
 */
async function firstSearchAfterWarming(root: string, reference: () => Promise<{ ms: number }>): Promise<{ engine: number; rg: number }> {
  const script = `
    const { warmSearchWorkers } = await import(${JSON.stringify(new URL('../engine/tools/search/runSearch.ts', import.meta.url).pathname)});
    const { searchFiles } = await import(${JSON.stringify(new URL('../engine/tools/searchFiles.ts', import.meta.url).pathname)});
    const { benchToolContext } = await import(${JSON.stringify(new URL('./tools.ts', import.meta.url).pathname)});
    const { getFileMap } = await import(${JSON.stringify(new URL('../engine/tools/getFileMap.ts', import.meta.url).pathname)});
    const context = await benchToolContext(${JSON.stringify(root)});
    await getFileMap.run({ path: '.', depth: 3 }, context);
    warmSearchWorkers();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const start = performance.now();
    await searchFiles.run(searchFiles.parameters.parse({ pattern: ${JSON.stringify(pattern)}, max_results: 1000 }), context);
    console.log(performance.now() - start);`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  const engine = Number(child.stdout.trim());
  return { engine, rg: (await reference()).ms };
}
