import { describe, expect, it } from 'vitest';
import { appendPlanItems, extractNewPlanItems, markPlanItem, parsePlan, withOriginalCount, withoutOutcomes } from '../../../engine/rpi/planFile.js';
import { designPlanExample as designExample } from '../../support/planExample.js';

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
          rawLine: '- [ ] 1. Parse statement — read bank.csv and normalise dates and amounts',
        },
        { index: 1, number: 2, label: 'Categorise', description: '...', status: 'done', rawLine: '- [x] 2. Categorise — ...' },
        {
          index: 2,
          number: 3,
          label: 'Write workbook',
          description: '...',
          status: 'failed',
          failure: 'write_xlsx rejected sheet name',
          rawLine: '- [!] 3. Write workbook — ... [Failed: write_xlsx rejected sheet name]',
        },
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
      rawLine: '- [!] 2. Write workbook [Failed: disk full]',
    });
  });

  it('reads the check a description ends with, after a dash, a full stop or a space, and keeps the description whole', () => {
    const { items } = parsePlan(
      [
        '- [ ] 1. Ledger — add the ledger module — Check: `npm test -- ledger`',
        '- [ ] 2. Parser — fix the parser. Check: `npx vitest run tests/parse.test.ts`.',
        '- [!] 3. Build — compile — check: `make` [Failed: check `make` exited 2]',
        '- [ ] 4. Docs — mention `npm test` in the README',
        '- [ ] 5. Empty — nothing — Check: ``',
      ].join('\n'),
    );
    expect(items.map((item) => item.check)).toEqual(['npm test -- ledger', 'npx vitest run tests/parse.test.ts', 'make', undefined, undefined]);
    expect(items[0]!.description).toBe('add the ledger module — Check: `npm test -- ledger`');
    expect(items[2]).toMatchObject({ status: 'failed', failure: 'check `make` exited 2' });
  });

  it('ignores lines that are not items', () => {
    const text = ['# Items', '* [ ] 1. star bullet', '  - [ ] 2. indented', '- [y] 3. unknown mark', '- [ ] four. no number', '- [ ]', '- [x] 5. Real one'].join(
      '\n',
    );
    expect(parsePlan(text).items.map((item) => item.label)).toEqual(['Real one']);
  });

  it('tolerates trailing spaces and a missing space after the box', () => {
    const { items } = parsePlan('- [x]7. Tight — spacing   \n');
    expect(items).toEqual([{ index: 0, number: 7, label: 'Tight', description: 'spacing', status: 'done', rawLine: '- [x]7. Tight — spacing   ' }]);
  });
});

describe('parsePlan rawLine', () => {
  it('keeps each item line exactly as in the file, without its CRLF ending', () => {
    const { items } = parsePlan('# Plan\r\n- [ ]  1.  Spaced   out  \r\n- [x] 2. Last');
    expect(items.map((item) => item.rawLine)).toEqual(['- [ ]  1.  Spaced   out  ', '- [x] 2. Last']);
  });
});

describe('markPlanItem', () => {
  it('rewrites only the checkbox of the item at the index, leaving every other byte alone', () => {
    const marked = markPlanItem(designExample, 0, 'done');
    expect(marked).toBe(designExample.replace('- [ ] 1. Parse', '- [x] 1. Parse'));
    expect(parsePlan(marked).items[0]).toMatchObject({ number: 1, label: 'Parse statement', status: 'done' });
  });

  it('counts items in file order from 0, whatever their numbers say', () => {
    const text = '- [ ] 7. Seventh\n- [ ] 7. Seventh again\n- [ ] 2. Second\n';
    expect(markPlanItem(text, 1, 'done')).toBe('- [ ] 7. Seventh\n- [x] 7. Seventh again\n- [ ] 2. Second\n');
  });

  it('appends the failure reason to a failed item, and the line still parses', () => {
    const marked = markPlanItem(designExample, 0, 'failed', 'bank.csv is empty');
    expect(marked).toContain('- [!] 1. Parse statement — read bank.csv and normalise dates and amounts [Failed: bank.csv is empty]\n');
    expect(parsePlan(marked).items[0]).toMatchObject({
      number: 1,
      label: 'Parse statement',
      description: 'read bank.csv and normalise dates and amounts',
      status: 'failed',
      failure: 'bank.csv is empty',
    });
  });

  it('replaces an earlier failure reason when an item fails again', () => {
    const marked = markPlanItem(designExample, 2, 'failed', 'sheet name too long');
    expect(marked).toContain('- [!] 3. Write workbook — ... [Failed: sheet name too long]\n');
    expect(marked).not.toContain('write_xlsx rejected');
  });

  it('removes the failure reason when a failed item is marked done or pending again', () => {
    const failedLine = '- [!] 3. Write workbook — ... [Failed: write_xlsx rejected sheet name]';
    expect(markPlanItem(designExample, 2, 'done')).toBe(designExample.replace(failedLine, '- [x] 3. Write workbook — ...'));
    expect(markPlanItem(designExample, 2, 'pending')).toContain('\n- [ ] 3. Write workbook — ...\n');
  });

  it('keeps CRLF line endings and a missing final newline', () => {
    const text = '# Plan\r\n- [ ] 1. One\r\n- [ ] 2. Two';
    expect(markPlanItem(text, 1, 'failed', 'no')).toBe('# Plan\r\n- [ ] 1. One\r\n- [!] 2. Two [Failed: no]');
    expect(markPlanItem(text, 0, 'done')).toBe('# Plan\r\n- [x] 1. One\r\n- [ ] 2. Two');
  });

  it('puts a multi-line reason on one line and bounds its length', () => {
    const marked = markPlanItem('- [ ] 1. One\n- [ ] 2. Two\n', 0, 'failed', `  Error:\n  disk\r\n\tfull ${'x'.repeat(1000)}  `);
    const [first, second] = marked.split('\n');
    expect(first).toMatch(/^- \[!\] 1\. One \[Failed: Error: disk full x+…\]$/);
    expect(first?.length).toBeLessThan(330);
    expect(second).toBe('- [ ] 2. Two');
  });

  it('says so when a failure comes without a reason', () => {
    expect(markPlanItem('- [ ] 1. One', 0, 'failed', ' \n ')).toBe('- [!] 1. One [Failed: no reason given]');
  });

  it('keeps the label of an item whose whole text looks like a failure note', () => {
    const marked = markPlanItem('- [!] 1. [Failed: odd label]', 0, 'done');
    expect(marked).toBe('- [x] 1. [Failed: odd label]');
    expect(parsePlan(marked).items).toMatchObject([{ number: 1, label: '[Failed: odd label]', status: 'done' }]);
  });

  it('refuses an index the plan does not have', () => {
    expect(() => markPlanItem(designExample, 3, 'done')).toThrow('The plan has no item at index 3: it has 3 item(s), counted from 0 in file order.');
    expect(() => markPlanItem('# Plan\n', 0, 'done')).toThrow(/has 0 item/);
  });
});

describe('withoutOutcomes', () => {
  it('shows every item pending without its failure reason, and keeps every other byte', () => {
    const marked = '# Execution Plan\r\n<!-- original_count: 3 -->\r\n\r\nNotes - [x] stay.\r\n- [x] 1. Parse — read it\r\n- [!] 2. Write — write it [Failed: no writer]\r\n- [ ] 3. Check';
    expect(withoutOutcomes(marked)).toBe('# Execution Plan\r\n<!-- original_count: 3 -->\r\n\r\nNotes - [x] stay.\r\n- [ ] 1. Parse — read it\r\n- [ ] 2. Write — write it\r\n- [ ] 3. Check');
    expect(withoutOutcomes(withoutOutcomes(marked))).toBe(withoutOutcomes(marked));
  });
});

describe('appendPlanItems', () => {
  const plan = (originalCountLine: string, items: string[]) =>
    ['# Execution Plan', originalCountLine, '', '## Items', ...items, '', '## Notes', 'Keep the CSV as is.', ''].join('\n');
  const three = ['- [x] 1. One', '- [ ] 2. Two', '- [ ] 3. Three'];

  it('appends new pending items right after the last existing item', () => {
    const newItems = ['- [ ] 4. Four — more', '- [ ] 5. Five'];
    const { text, appended, dropped, warning } = appendPlanItems(plan('<!-- original_count: 3 -->', three), newItems);
    expect(text).toBe(plan('<!-- original_count: 3 -->', [...three, '- [ ] 4. Four — more', '- [ ] 5. Five']));
    expect({ appended, dropped, warning }).toEqual({ appended: ['- [ ] 4. Four — more', '- [ ] 5. Five'], dropped: [], warning: undefined });
  });

  it('fills the plan exactly up to twice its original count without a warning', () => {
    const result = appendPlanItems(plan('<!-- original_count: 3 -->', three), ['- [ ] 4. A', '- [ ] 5. B', '- [ ] 6. C']);
    expect(parsePlan(result.text).items).toHaveLength(6);
    expect(result.dropped).toEqual([]);
    expect(result).not.toHaveProperty('warning');
  });

  it('drops the items beyond twice the original count and says how many and why', () => {
    const result = appendPlanItems(plan('<!-- original_count: 2 -->', three), ['- [ ] 4. A', '- [ ] 5. B', '- [ ] 6. C']);
    expect(result.appended).toEqual(['- [ ] 4. A']);
    expect(result.dropped).toEqual(['- [ ] 5. B', '- [ ] 6. C']);
    expect(result.warning).toBe('Dropped 2 new plan item(s): a plan may grow to 2× its original 2 item(s), 4 in all, and it had 3.');
    expect(parsePlan(result.text).items.map((item) => item.label)).toEqual(['One', 'Two', 'Three', 'A']);
  });

  it('leaves the text alone when the plan is already at its cap', () => {
    const text = plan('<!-- original_count: 1 -->', ['- [ ] 1. One', '- [ ] 2. Two']);
    const result = appendPlanItems(text, ['- [ ] 3. Three']);
    expect(result).toMatchObject({ text, appended: [], dropped: ['- [ ] 3. Three'] });
    expect(result.warning).toMatch(/^Dropped 1 new plan item\(s\)/);
  });

  it.each([
    ['missing', ''],
    ['unreadable', '<!-- original_count: lots -->'],
  ])('puts no cap on a plan whose original_count is %s', (_what, countLine) => {
    const many = Array.from({ length: 20 }, (_, i) => `- [ ] ${i + 4}. Extra ${i}`);
    const result = appendPlanItems(plan(countLine, three), many);
    expect(result.appended).toEqual(many);
    expect(result.dropped).toEqual([]);
    expect(parsePlan(result.text).items).toHaveLength(23);
  });

  it('normalises new lines to the pending "- [ ] N. " form', () => {
    const { appended } = appendPlanItems('- [ ] 1. One\n', ['  - [x]4.Done already  ', '- [!] 5.   Failed   ', '- [ ] 6. Fine — as is']);
    expect(appended).toEqual(['- [ ] 4. Done already', '- [ ] 5. Failed', '- [ ] 6. Fine — as is']);
  });

  it('refuses a line that is not a plan item', () => {
    expect(() => appendPlanItems('- [ ] 1. One\n', ['Add tests'])).toThrow(
      '"Add tests" is not a plan item line; expected "- [ ] N. Label — description".',
    );
  });

  it('puts items under an "## Items" heading when the plan has none yet', () => {
    const text = '# Execution Plan\n<!-- original_count: 1 -->\n\n## Items\nNothing yet.\n';
    expect(appendPlanItems(text, ['- [ ] 1. First']).text).toBe(
      '# Execution Plan\n<!-- original_count: 1 -->\n\n## Items\n- [ ] 1. First\nNothing yet.\n',
    );
  });

  it('puts items at the end when there are neither items nor a heading', () => {
    expect(appendPlanItems('Some notes\n', ['- [ ] 1. First']).text).toBe('Some notes\n- [ ] 1. First\n');
    expect(appendPlanItems('Some notes', ['- [ ] 1. First']).text).toBe('Some notes\n- [ ] 1. First');
    expect(appendPlanItems('', ['- [ ] 1. First']).text).toBe('- [ ] 1. First\n');
  });

  it('uses the file\'s CRLF endings and keeps the rest of it byte for byte', () => {
    const text = '# Plan\r\n- [ ] 1. One\r\n\r\nNotes\r\n';
    expect(appendPlanItems(text, ['- [ ] 2. Two']).text).toBe('# Plan\r\n- [ ] 1. One\r\n- [ ] 2. Two\r\n\r\nNotes\r\n');
  });

  it('keeps a missing final newline missing when the last item ends the file', () => {
    expect(appendPlanItems('- [ ] 1. One', ['- [ ] 2. Two', '- [ ] 3. Three']).text).toBe('- [ ] 1. One\n- [ ] 2. Two\n- [ ] 3. Three');
  });
});

describe('extractNewPlanItems', () => {
  it('finds the pending item lines in a model\'s final text, trimmed and in order', () => {
    const modelText = [
      'Done with step 2. While doing it I noticed two more things:',
      '- [ ] 7. Fix dates — some rows use DD/MM',
      '  - [ ] 8. Add totals   ',
      '- [x] 9. Already done',
      '- [ ] Untitled',
      '* [ ] 10. Star bullet',
      '- [ ]11.Tight',
      'That is all.',
    ].join('\r\n');
    expect(extractNewPlanItems(modelText)).toEqual(['- [ ] 7. Fix dates — some rows use DD/MM', '- [ ] 8. Add totals', '- [ ]11.Tight']);
  });

  it('finds nothing in text without items', () => {
    expect(extractNewPlanItems('All done.\n')).toEqual([]);
    expect(extractNewPlanItems('')).toEqual([]);
  });
});

describe('withOriginalCount', () => {
  it('records the item count right after the title', () => {
    const text = '# Execution Plan\n\n## Items\n- [ ] 1. One\n- [ ] 1. One again\n- [ ] 5. Five\n';
    expect(withOriginalCount(text)).toBe(text.replace('# Execution Plan\n', '# Execution Plan\n<!-- original_count: 3 -->\n'));
  });

  it('records it at the top when there is no title, using the file\'s line endings', () => {
    expect(withOriginalCount('## Items\r\n- [ ] 1. One\r\n')).toBe('<!-- original_count: 1 -->\r\n## Items\r\n- [ ] 1. One\r\n');
    expect(withOriginalCount('')).toBe('<!-- original_count: 0 -->\n');
  });

  it('leaves a plan that already has a readable original_count unchanged', () => {
    expect(withOriginalCount(designExample)).toBe(designExample);
  });

  it('adds a readable count when the one there cannot be read', () => {
    const result = withOriginalCount('# Plan\n<!-- original_count: ? -->\n- [ ] 1. One\n');
    expect(parsePlan(result).originalCount).toBe(1);
  });
});
