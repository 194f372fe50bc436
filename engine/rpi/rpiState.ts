import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RpiState } from '../contract/index.js';
import { parsePlan } from './planFile.js';

export const rpiPaths = (stateDir: string) => ({
  dir: path.join(stateDir, 'rpi'),
  research: path.join(stateDir, 'rpi', 'research.md'),
  plan: path.join(stateDir, 'rpi', 'plan.md'),
});

/** What the files on disk say about the current run; the orchestrator decides the next phase from this. */
export async function readRpiState(stateDir: string): Promise<RpiState> {
  const files = rpiPaths(stateDir);
  const research = await readOptional(files.research);
  const plan = await readOptional(files.plan);
  const items = plan === null ? [] : parsePlan(plan).items;
  return {
    hasResearch: research !== null && research.trim().length > 0,
    hasPlan: plan !== null,
    items,
    allDone: plan !== null && items.every((item) => item.status !== 'pending'),
  };
}

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
