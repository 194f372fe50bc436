// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RunPanel } from '../../../../renderer/src/components/run/RunPanel.js';
import type { TablePreview } from '../../../../engine/contract/tablePreview.js';
import { midRun, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(cleanup);

/** A table_query result's preview as the tool hands it over: 8 of the 10 rows it shows, 250 rows in all. */
const queryPreview: TablePreview = {
  columns: ['category (text)', 'total (decimal)'],
  rows: Array.from({ length: 8 }, (_, index) => [`Category | ${index}`, `-${index}.5`]),
  more: 242,
};

describe('a table tool in the activity feed', () => {
  it('shows the result as a small table under the call', async () => {
    const harness = runViewHarness();
    await harness.render(<RunPanel />);
    harness.emit(
      ...midRun.slice(0, 2),
      { type: 'tool-started', runId, callId: 't1', tool: 'table_query', args: { sql: "SELECT category, sum(amount) FROM 'bank.csv' GROUP BY 1" } },
      { type: 'tool-finished', runId, callId: 't1', ok: true, summary: '250 rows, 2 columns', durationMs: 40, table: queryPreview },
    );
    const table = within(screen.getByTestId('activity-feed')).getByTestId('activity-table');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['category (text)', 'total (decimal)']);
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 8);
    expect(within(table).getAllByRole('cell')[0]!.textContent).toBe('Category | 0');
    expect(screen.getByText('242 more rows')).toBeTruthy();
  });
});
