import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../../engine/rpi/planFile.js';
import { readRpiState, rpiPaths } from '../../../engine/rpi/rpiState.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const designExample = `# Execution Plan
<!-- original_count: 3 -->

## Items
- [ ] 1. Parse statement — read bank.csv and normalise dates and amounts
- [x] 2. Categorise — ...
- [!] 3. Write workbook — ... [Failed: write_xlsx rejected sheet name]
`;

describe('parsePlan', () => {
  it('reads the DESIGN §3 example', () => {
    expect(parsePlan(designExample)).toEqual({
      originalCount: 3,
      items: [
        {
          index: 0,
          number: 1,
          label: 'Parse statement',
          description: 'read bank.csv and normalise dates and amounts',
          status: 'pending',
        },
        { index: 1, number: 2, label: 'Categorise', description: '...', status: 'done' },
        { index: 2, number: 3, label: 'Write workbook', description: '...', status: 'failed', failure: 'write_xlsx rejected sheet name' },
      ],
    });
  });

  it('reads the same plan with CRLF line endings', () => {
    expect(parsePlan(designExample.replace(/\n/g, '\r\n'))).toEqual(parsePlan(designExample));
  });

  it('accepts duplicate and missing numbers, keeping file order', () => {
    const { items } = parsePlan('- [ ] 4. Fourth\n- [ ] 1. First\n- [x] 1. Again one\n- [ ] 9. Ninth\n');
    expect(items.map(({ index, number, label }) => ({ index, number, label }))).toEqual([
      { index: 0, number: 4, label: 'Fourth' },
      { index: 1, number: 1, label: 'First' },
      { index: 2, number: 1, label: 'Again one' },
      { index: 3, number: 9, label: 'Ninth' },
    ]);
  });

  it('reads zero items from a plan with none', () => {
    expect(parsePlan('# Execution Plan\n<!-- original_count: 0 -->\n\n## Items\nNothing to change.\n')).toEqual({ items: [], originalCount: 0 });
    expect(parsePlan('')).toEqual({ items: [], originalCount: null });
  });

  it.each([
    ['missing', '# Execution Plan\n- [ ] 1. Do it\n'],
    ['not a number', '<!-- original_count: three -->\n- [ ] 1. Do it\n'],
    ['empty', '<!-- original_count: -->\n- [ ] 1. Do it\n'],
    ['unclosed', '<!-- original_count: 3\n- [ ] 1. Do it\n'],
  ])('treats an original_count that is %s as no cap (null)', (_what, text) => {
    const plan = parsePlan(text);
    expect(plan.originalCount).toBeNull();
    expect(plan.items).toHaveLength(1);
  });

  it('splits label and description at a spaced dash of any kind, and only the first', () => {
    const { items } = parsePlan(
      ['- [ ] 1. Em — dash', '- [ ] 2. En – dash', '- [ ] 3. Hyphen - dash - and more', '- [ ] 4. re-index the well-known files', '- [ ] 5. No description'].join(
        '\n',
      ),
    );
    expect(items.map(({ label, description }) => [label, description])).toEqual([
      ['Em', 'dash'],
      ['En', 'dash'],
      ['Hyphen', 'dash - and more'],
      ['re-index the well-known files', ''],
      ['No description', ''],
    ]);
  });

  it('reads a failure reason on an item without a description', () => {
    expect(parsePlan('- [!] 2. Write workbook [Failed: disk full]').items[0]).toEqual({
      index: 0,
      number: 2,
      label: 'Write workbook',
      description: '',
      status: 'failed',
      failure: 'disk full',
    });
  });

  it('ignores lines that are not items', () => {
    const text = ['# Items', '* [ ] 1. star bullet', '  - [ ] 2. indented', '- [y] 3. unknown mark', '- [ ] four. no number', '- [ ]', '- [x] 5. Real one'].join(
      '\n',
    );
    expect(parsePlan(text).items.map((item) => item.label)).toEqual(['Real one']);
  });

  it('tolerates trailing spaces and a missing space after the box', () => {
    const { items } = parsePlan('- [x]7. Tight — spacing   \n');
    expect(items).toEqual([{ index: 0, number: 7, label: 'Tight', description: 'spacing', status: 'done' }]);
  });
});

describe('readRpiState', () => {
  const tempFolder = useTempFolders();
  const stateDir = async (files: Record<string, string> = {}) => {
    const dir = path.join(await tempFolder(), '.workbench');
    await writeTree(dir, files);
    return dir;
  };

  it('reports nothing when there are no files', async () => {
    expect(await readRpiState(await stateDir())).toEqual({ hasResearch: false, hasPlan: false, items: [], allDone: false });
  });

  it('reports research only', async () => {
    const dir = await stateDir({ 'rpi/research.md': '# Research\nThe CSV uses ; as separator.\n' });
    expect(rpiPaths(dir).research).toBe(path.join(dir, 'rpi', 'research.md'));
    expect(await readRpiState(dir)).toEqual({ hasResearch: true, hasPlan: false, items: [], allDone: false });
  });

  it('does not count blank research as research', async () => {
    expect((await readRpiState(await stateDir({ 'rpi/research.md': ' \n\n' }))).hasResearch).toBe(false);
  });

  it('says all done when no item is pending (failed items count as finished)', async () => {
    const dir = await stateDir({ 'rpi/research.md': 'r', 'rpi/plan.md': '- [x] 1. A\n- [!] 2. B [Failed: no]\n' });
    const state = await readRpiState(dir);
    expect(state).toMatchObject({ hasResearch: true, hasPlan: true, allDone: true });
    expect(state.items.map((item) => item.status)).toEqual(['done', 'failed']);
  });

  it('is not done while an item is pending', async () => {
    const dir = await stateDir({ 'rpi/plan.md': designExample });
    expect(await readRpiState(dir)).toMatchObject({ hasResearch: false, hasPlan: true, allDone: false });
  });

  it('treats a plan with zero items as all done (nothing to implement)', async () => {
    const dir = await stateDir({ 'rpi/plan.md': '# Execution Plan\n\n## Items\n' });
    expect(await readRpiState(dir)).toEqual({ hasResearch: false, hasPlan: true, items: [], allDone: true });
  });
});
