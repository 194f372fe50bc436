import type { Phase } from '../../../../engine/contract/index.js';
import { phaseNames } from '../../store/runStatus.js';
import { phaseOrder, type PhaseStep, type StepState } from '../../store/runView.js';
import { useWorkbench } from '../../store/StoreContext.js';

const stateWords: Record<StepState, string> = { pending: 'not started', active: 'in progress', done: 'done', failed: 'failed' };
const marks: Record<StepState, string> = { pending: '', active: '', done: '✓', failed: '!' };

/** Research → Plan → Implement → Summary, each pending, active, done or failed (with why). */
export function PhaseStepper() {
  const steps = useWorkbench((state) => state.run?.steps);
  if (!steps) return null;
  const failed = phaseOrder.filter((phase) => steps[phase].state === 'failed');
  return (
    <div className="phase-stepper-wrap">
      <ol className="phase-stepper" data-testid="phase-stepper" aria-label="Phases">
        {phaseOrder.map((phase, index) => (
          <Step key={phase} phase={phase} number={index + 1} step={steps[phase]} />
        ))}
      </ol>
      {failed.map((phase) => (
        <p key={phase} className="phase-error" data-testid="phase-error">
          {phaseNames[phase]}: {steps[phase].error}
        </p>
      ))}
    </div>
  );
}

function Step({ phase, number, step }: { phase: Phase; number: number; step: PhaseStep }) {
  return (
    <li className={`phase-step phase-${step.state}`} data-phase={phase} data-state={step.state} aria-current={step.state === 'active' ? 'step' : undefined}>
      <span className="phase-mark" aria-hidden="true">
        {marks[step.state] || number}
      </span>
      <span className="phase-name">{phaseNames[phase]}</span>
      <span className="visually-hidden">, {stateWords[step.state]}</span>
    </li>
  );
}
