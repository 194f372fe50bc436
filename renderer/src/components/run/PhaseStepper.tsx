import type { Phase, RunUsage } from '../../../../engine/contract/index.js';
import { phaseModelsOf } from '../../../../engine/contract/runUsage.js';
import { phaseNames } from '../../store/runStatus.js';
import { phaseOrder, type PhaseStep, type StepState } from '../../store/runView.js';
import { useWorkbench } from '../../store/StoreContext.js';

const stateWords: Record<StepState, string> = { pending: 'not started', active: 'in progress', done: 'done', failed: 'failed' };
const marks: Record<StepState, string> = { pending: '', active: '', done: '✓', failed: '!' };

/** Research → Plan → Implement → Summary, each pending, active, done or failed (with why), and the model it ran on. */
export function PhaseStepper() {
  const steps = useWorkbench((state) => state.run?.steps);
  const started = useWorkbench((state) => state.run?.phaseModels);
  const kept = useWorkbench((state) => state.runUsage);
  if (!steps) return null;
  const models = modelsShown(started ?? {}, kept);
  const failed = phaseOrder.filter((phase) => steps[phase].state === 'failed');
  return (
    <div className="phase-stepper-wrap">
      <ol className="phase-stepper" data-testid="phase-stepper" aria-label="Phases">
        {phaseOrder.map((phase, index) => (
          <Step key={phase} phase={phase} number={index + 1} step={steps[phase]} model={models[phase]} />
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

/** The models the run's phases started on, else (a reload after a crash) the ones its kept usage names. */
function modelsShown(started: Partial<Record<Phase, string>>, kept: RunUsage | null): Partial<Record<Phase, string>> {
  const fromUsage = kept ? phaseModelsOf(kept.steps) : null;
  return Object.fromEntries(phaseOrder.map((phase) => [phase, started[phase] ?? fromUsage?.[phase] ?? undefined]).filter(([, model]) => model !== undefined));
}

function Step({ phase, number, step, model }: { phase: Phase; number: number; step: PhaseStep; model: string | undefined }) {
  return (
    <li className={`phase-step phase-${step.state}`} data-phase={phase} data-state={step.state} aria-current={step.state === 'active' ? 'step' : undefined}>
      <span className="phase-mark" aria-hidden="true">
        {marks[step.state] || number}
      </span>
      <span className="phase-name">{phaseNames[phase]}</span>
      {model && (
        <span className="phase-model" data-testid="phase-model" title={model}>
          {model}
        </span>
      )}
      <span className="visually-hidden">, {stateWords[step.state]}</span>
    </li>
  );
}
