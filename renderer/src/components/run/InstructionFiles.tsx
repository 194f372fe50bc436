import { useWorkbench } from '../../store/StoreContext.js';

const none: string[] = [];

/** Which of the project's instruction files (AGENTS.md, nested ones) the run's phases were given. */
export function InstructionFiles() {
  const files = useWorkbench((state) => state.run?.instructionFiles ?? none);
  if (files.length === 0) return null;
  return (
    <p className="run-note" data-testid="instruction-files" title="Given to every phase as the project's instructions for coding agents">
      Project instructions: {files.join(', ')}
    </p>
  );
}
