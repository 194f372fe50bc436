import { useWorkbench } from '../../store/StoreContext.js';
import { ActivityFeed } from './ActivityFeed.js';
import { ContextMeter } from './ContextMeter.js';
import { PhaseStepper } from './PhaseStepper.js';
import { InstructionFiles } from './InstructionFiles.js';
import { AttachedItems } from './AttachedItems.js';
import { PlanChecklist } from './PlanChecklist.js';
import { RpiFiles } from './RpiFiles.js';
import { RunSpend } from './RunSpend.js';
import { RunStatus } from './RunStatus.js';
import './run.css';

/** The live run view beside the chat: phases, status, plan checklist, tool activity, tokens and spend per step, and the run's files. */
export function RunPanel() {
  const hasRun = useWorkbench((state) => state.run !== null);
  const hasFiles = useWorkbench((state) => state.rpi.hasResearch || state.rpi.hasPlan);
  return (
    <div className="run-panel" data-testid="run-panel">
      <h2 className="run-panel-title">Run</h2>
      {hasRun ? (
        <>
          <PhaseStepper />
          <RunStatus />
          <InstructionFiles />
          <AttachedItems />
          <ContextMeter />
          <RunSpend />
          <PlanChecklist />
          <ActivityFeed />
        </>
      ) : (
        <div className="run-empty" data-testid="run-empty">
          <p>No run yet.</p>
          <p className="muted">
            Send a request and the agent works in four phases: it researches the folder, writes a plan, carries out each step (asking
            before it changes files), then sums up. You can follow each phase, step and tool call here.
          </p>
          {hasFiles && <PlanChecklist />}
          <RunSpend />
        </div>
      )}
      {(hasRun || hasFiles) && <RpiFiles />}
    </div>
  );
}
