// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RunPanel } from '../../../../renderer/src/components/run/RunPanel.js';
import { tablePreviewOf } from '../../../../engine/tables/tablePreview.js';
import { midRun, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(cleanup);

const queryResult = [
  '250 rows, 2 columns',
  'category (text) | total (decimal)',
  ...Array.from({ length: 10 }, (_, index) => `Category \\| ${index} | -${index}.5`),
  '[Showing 10 of 250 rows. Narrow the query with WHERE, aggregate with GROUP BY, or page with LIMIT and OFFSET.]',
].join('\n');

describe('a table tool in the activity feed', () => {
  it('takes the first rows of the result, the header with its types, and counts the rest', () => {
    const table = tablePreviewOf('table_query', true, queryResult)!;
    expect(table.columns).toEqual(['category (text)', 'total (decimal)']);
    expect(table.rows).toHaveLength(8);
    expect(table.rows[0]).toEqual(['Category | 0', '-0.5']);
    expect(table.more).toBe(2 + 240);
    expect(tablePreviewOf('read_file', true, queryResult)).toBeNull();
    expect(tablePreviewOf('table_query', false, 'Refused: …')).toBeNull();
  });

  it('shows the result as a small table under the call', async () => {
    const harness = runViewHarness();
    await harness.render(<RunPanel />);
    harness.emit(
      ...midRun.slice(0, 2),
      { type: 'tool-started', runId, callId: 't1', tool: 'table_query', args: { sql: "SELECT category, sum(amount) FROM 'bank.csv' GROUP BY 1" } },
      { type: 'tool-finished', runId, callId: 't1', ok: true, summary: '250 rows, 2 columns', durationMs: 40, table: tablePreviewOf('table_query', true, queryResult)! },
    );
    const table = within(screen.getByTestId('activity-feed')).getByTestId('activity-table');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['category (text)', 'total (decimal)']);
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 8);
    expect(within(table).getAllByRole('cell')[0]!.textContent).toBe('Category | 0');
    expect(screen.getByText('242 more rows')).toBeTruthy();
  });
});
