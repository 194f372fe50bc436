// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkbenchView } from '../../../renderer/src/components/WorkbenchView.js';
import { midRun, runId } from '../../support/runViewFixture.js';
import { runViewHarness } from '../../support/runViewHarness.js';

afterEach(cleanup);

describe('the workbench view during a run', () => {
  it("shows the engine's warning that the fixed part of a request leaves little room, naming the setting", async () => {
    const harness = runViewHarness();
    await harness.render(<WorkbenchView onOpenSettings={() => undefined} />);
    harness.emit(...midRun.slice(0, 2));
    expect(screen.queryByRole('list', { name: 'Warnings' })).toBeNull();

    const message =
      'The fixed part of each Research request (system prompt, tools, plan, file map, project instructions) takes about 5,120 tokens, 83% of the 6,144 a request ' +
      "may fill in a context window of 8,192 tokens, so little room is left for the work and older results are set aside on most turns. If the model's window is " +
      'larger, set it in Settings → Context window (on the command line: --context-window <tokens>).';
    harness.emit({ type: 'warning', runId, message });

    expect(within(screen.getByRole('list', { name: 'Warnings' })).getAllByRole('listitem').map((entry) => entry.textContent)).toEqual([message]);
    expect(screen.getByTestId('phase-stepper')).toBeTruthy();
  });
});
