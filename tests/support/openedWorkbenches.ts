import { afterEach } from 'vitest';
import { openWorkbench, type Workbench } from '../../engine/index.js';

/** Opens workbenches for one test and closes (unlocks) every one of them after it. */
export function useOpenedWorkbenches(): (folder: string) => Promise<Workbench> {
  const opened: Workbench[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((workbench) => workbench.close()));
  });
  return async (folder) => {
    const workbench = await openWorkbench(folder);
    opened.push(workbench);
    return workbench;
  };
}
