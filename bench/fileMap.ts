import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getFileMap } from '../engine/tools/getFileMap.js';
import { forgetFolderListings } from '../engine/workspace/walkFiles.js';
import { benchToolContext, ensureRipgrep, format, interleavedMedians } from './tools.js';
import { ReferenceRunner, selfTimed } from './referenceRunner.js';

const runs = 7;

/**
 * 100,000 files on disk: 100 packages × 10 modules × 5 folders × 19 files (every 7th a .log the root
 * .gitignore ignores, a nested .gitignore in every 10th module, one with a path pattern), plus an
 * ignored build/ of 5,000.
 */
async function generateTree(root: string): Promise<void> {
  await writeFile(path.join(root, '.gitignore'), 'build/\n*.log\n/coverage/\n');
  for (let p = 0; p < 100; p += 1) {
    for (let m = 0; m < 10; m += 1) {
      const module = path.join(root, `pkg${p}`, `mod${m}`);
      const folders = Array.from({ length: 5 }, (_, d) => path.join(module, `dir${d}`));
      await Promise.all(folders.map((folder) => mkdir(folder, { recursive: true })));
      if (m === 0) await writeFile(path.join(module, '.gitignore'), 'tmp-*\ndir4/generated/\n');
      await Promise.all(
        folders.flatMap((folder) =>
          Array.from({ length: 19 }, (_, f) => writeFile(path.join(folder, f % 7 === 0 ? `x${f}.log` : `f${f}.ts`), `export const v${f} = ${f};\n`)),
        ),
      );
    }
  }
  await mkdir(path.join(root, 'build'));
  await Promise.all(Array.from({ length: 5000 }, (_, f) => writeFile(path.join(root, 'build', `b${f}.js`), '')));
}

/** get_file_map (default depth, through the tool's run) against `rg --files` on the same 100,000-file tree. */
export async function benchFileMap(): Promise<void> {
  const rg = ensureRipgrep();
  const root = await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-map-'));
  const references = ReferenceRunner.start();
  try {
    await generateTree(root);
    const context = await benchToolContext(root);
    const map = async () => (await getFileMap.run(getFileMap.parameters.parse({}), context)).text;
    const rgFiles = () => references.run(rg, ['--files', '--hidden', '--no-require-git', '-g', '!.git', root]);
    const sample = await map();
    await rgFiles();
    const firstMap = () => {
      forgetFolderListings();
      return map();
    };
    // A folder's listing is kept from its second walk on: the second map is untimed, the third timed.
    const keptMap = async () => {
      await map();
      const start = performance.now();
      await map();
      return { [selfTimed]: performance.now() - start };
    };
    const [mapMs = 0, keptMs = 0, rgMs = 0] = await interleavedMedians(runs, [firstMap, keptMap, rgFiles]);
    console.log(`file map, 100,000 files on disk: ${sample.split('\n')[0]}`);
    console.log(`  map: ${sample.split('\n').length} lines, ${sample.length.toLocaleString('en-US')} characters`);
    console.log(`  engine get_file_map  ${format(mapMs)}  (every folder listed, as a first walk)`);
    console.log(`  rg --files           ${format(rgMs)}`);
    console.log(`  ratio engine / rg    ${(mapMs / rgMs).toFixed(2)}×  (goal ≤ 1.2×; median of ${runs}, run in turns)`);
    console.log(`  a map after it       ${format(keptMs)}, ${(keptMs / rgMs).toFixed(2)}× rg  (folder listings kept from the walks before: see FolderListings)`);
  } finally {
    references.close();
    await rm(root, { recursive: true, force: true });
  }
}
