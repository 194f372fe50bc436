import { afterEach } from 'vitest';
import { openWorkbench, type RunOptions, type Workbench } from '../../engine/index.js';

/** Opens workbenches for one test and closes (cancels their runs, unlocks) every one of them after it. */
export function useOpenedWorkbenches(): (folder: string, options?: RunOptions) => Promise<Workbench> {
  const opened: Workbench[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((workbench) => workbench.close()));
  });
  return async (folder, options) => {
    const workbench = await openWorkbench(folder, options);
    opened.push(workbench);
    return workbench;
  };
}
