import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { countFiles, forgetFolderListings } from '../engine/workspace/walkFiles.js';
import { ensureRipgrep, format, interleavedMedians } from './tools.js';
import { ReferenceRunner } from './referenceRunner.js';

/** A tree of `dirs` × `filesPerDir` small files, a nested .gitignore every 10th folder, and an ignored build/. */
async function generateTree(root: string, dirs: number, filesPerDir: number): Promise<void> {
  await writeFile(path.join(root, '.gitignore'), 'build/\n*.log\n');
  for (let d = 0; d < dirs; d += 1) {
    const dir = path.join(root, `pkg${d % 20}`, `mod${d}`);
    await mkdir(dir, { recursive: true });
    if (d % 10 === 0) await writeFile(path.join(dir, '.gitignore'), 'tmp-*\n');
    await Promise.all(Array.from({ length: filesPerDir }, (_, f) => writeFile(path.join(dir, f % 7 === 0 ? `x${f}.log` : `f${f}.ts`), `export const v${f} = ${f};\n`)));
  }
  await mkdir(path.join(root, 'build'));
  await Promise.all(Array.from({ length: 500 }, (_, f) => writeFile(path.join(root, 'build', `b${f}.js`), '')));
}

/** The folder snapshot's file count (nested .gitignore honoured) against `rg --files` on the same tree. */
export async function benchFileCount(): Promise<void> {
  const rg = ensureRipgrep();
  const root = await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-count-'));
  const references = ReferenceRunner.start();
  try {
    await generateTree(root, 1000, 20);
    const ours = await countFiles(root);
    const rgArgs = ['--files', '--hidden', '--no-require-git', '-g', '!.git', root];
    const theirs = (await references.run(rg, rgArgs, { output: true })).stdout.split('\n').filter(Boolean).length;
    if (ours !== theirs) console.log(`  note: engine counts ${ours} files, rg --files lists ${theirs}`);
    // Every folder listed, as a first walk does: the tree was just written, so a later walk would keep few listings (see FolderListings).
    const firstWalk = () => {
      forgetFolderListings();
      return countFiles(root);
    };
    const [engineMs = 0, rgMs = 0] = await interleavedMedians(5, [firstWalk, () => references.run(rg, rgArgs)]);
    console.log(`file count, ${ours.toLocaleString()} files (20,500 on disk, .gitignore honoured)`);
    console.log(`  engine countFiles  ${format(engineMs)}  (every folder listed, as a first walk)`);
    console.log(`  rg --files         ${format(rgMs)}`);
    console.log(`  ratio engine / rg  ${(engineMs / rgMs).toFixed(2)}×  (goal ≤ 1.1×; median of 5, run in turns)`);
  } finally {
    references.close();
    await rm(root, { recursive: true, force: true });
  }
}
