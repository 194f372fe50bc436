import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PathSearch } from '../engine/context/pathSearch.js';
import { rankPaths } from '../engine/contract/fuzzyPath.js';
import { ensureRipgrep, format, interleavedMedians, median } from './tools.js';
import { ReferenceRunner } from './referenceRunner.js';

const words = ['bank', 'parser', 'ledger', 'invoice', 'account', 'report', 'export', 'import', 'statement', 'category'];

/** A source tree of `dirs` folders × `filesPerDir` files (paths of about 90 characters, names made of a few words), and an ignored build/. */
async function generateTree(root: string, dirs: number, filesPerDir: number): Promise<void> {
  await writeFile(path.join(root, '.gitignore'), 'build/\n');
  for (let d = 0; d < dirs; d += 1) {
    const dir = path.join(root, 'packages', `${words[d % words.length]}-service`, 'src', 'main', 'components', 'implementation', `module${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: filesPerDir }, (_, f) => writeFile(path.join(dir, `${words[f % words.length]}${words[(f * 7 + d) % words.length]}${f}.ts`), '')),
    );
  }
  await mkdir(path.join(root, 'build'));
  await Promise.all(Array.from({ length: 1000 }, (_, f) => writeFile(path.join(root, 'build', `bank${f}.js`), '')));
}

/**
 * The composer's `@` completion on a folder of 100,000 files: the first search of a request (walking the
 * folder, .gitignore honoured) against `rg --files` on the same tree, and each further keystroke (ranking
 * the kept listing) against a plain substring filter of the same listing — the least any completion does.
 */
export async function benchPathCompletion(): Promise<void> {
  const rg = ensureRipgrep();
  const root = await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-paths-'));
  const references = ReferenceRunner.start();
  try {
    await generateTree(root, 2500, 40);
    const rgArgs = ['--files', '--hidden', '--no-require-git', '-g', '!.git', root];
    const [coldMs = 0, rgMs = 0] = await interleavedMedians(5, [
      () => new PathSearch({ root }).search('bankpar'),
      () => references.run(rg, rgArgs),
    ]);
    const warm = new PathSearch({ root, now: () => 0 });
    const { truncated } = await warm.search('');
    const listing = (await references.run(rg, rgArgs, { output: true })).stdout
      .split('\n')
      .filter(Boolean)
      .map((file) => ({ path: path.relative(root, file) }));
    const typed = ['b', 'ba', 'ban', 'bank', 'bankp', 'bankpa', 'bankpar', 'bankpars', 'bankparser', 'componentimpl', 'ledgerserviceinvoicereport'];
    const keystroke: number[] = [];
    const substring: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (const query of typed) {
        let start = performance.now();
        await warm.search(query);
        keystroke.push(performance.now() - start);
        start = performance.now();
        listing.filter((entry) => entry.path.toLowerCase().includes(query)).slice(0, 50);
        substring.push(performance.now() - start);
      }
    }
    const ranked = rankPaths('bankpar', listing, 1)[0]?.path ?? '(none)';
    console.log(`@ completion, ${listing.length.toLocaleString()} files (+1,000 ignored)${truncated ? ', listing cut at its limit' : ''}`);
    console.log(`  first search (walk + rank)     ${format(coldMs)}`);
    console.log(`  rg --files (walk only)         ${format(rgMs)}`);
    console.log(`  ratio first search / rg        ${(coldMs / rgMs).toFixed(2)}×`);
    console.log(`  keystroke (fuzzy rank), median ${format(median(keystroke))}, max ${format(Math.max(...keystroke))}`);
    console.log(`  substring filter, median       ${format(median(substring))}`);
    console.log(`  ratio keystroke / substring    ${(median(keystroke) / median(substring)).toFixed(2)}×   (best for "bankpar": ${ranked})`);
  } finally {
    references.close();
    await rm(root, { recursive: true, force: true });
  }
}
