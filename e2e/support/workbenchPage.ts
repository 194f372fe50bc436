import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { say, planText } from '../../tests/support/rpiScript.js';
import { walkFiles } from '../../engine/workspace/walkFiles.js';
import { serveFolder, type ServedFolder, type ServedSettings } from './serveHost.js';
import { startSteppedModel, type SteppedModel } from './steppedModel.js';
import { afterTest } from './teardown.js';

export { say, planText };

/** A project folder, served to the page, with a stepped fake model behind it; `runTeardown` closes it. */
export interface Bench {
  folder: string;
  model: SteppedModel;
  served: ServedFolder;
}

/** Opens a bench on the `fake-model`, or the model named (the fake server answers for any name). */
export async function openBench(page: Page, approvals: ServedSettings['approvals'], { model: modelName = 'fake-model' }: { model?: string } = {}): Promise<Bench> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-e2e-run-'));
  afterTest(() => rm(folder, { recursive: true, force: true }));
  await writeFile(path.join(folder, 'README.md'), '# Ledger\n\nConverts bank statements.\n');
  await mkdir(path.join(folder, 'data'));
  await writeFile(path.join(folder, 'data', 'bank.csv'), 'date,amount\n2024-01-02,10\n');
  const model = await startSteppedModel();
  afterTest(() => model.close());
  const served = await serveFolder(folder, {}, { baseUrl: model.llm.baseUrl, model: modelName, contextWindow: 32_000, toolMode: 'native', approvals });
  afterTest(() => served.stop());
  await page.setViewportSize({ width: 1360, height: 860 });
  await page.goto(served.url);
  await expect(page.getByTestId('folder-name')).toBeVisible();
  return { folder, model, served };
}

export async function sendRequest(page: Page, text: string): Promise<void> {
  await page.getByTestId('composer').fill(text);
  await page.getByTestId('composer').press('Enter');
}

/** The step states of the phase stepper, e.g. `research:done`. */
export async function stepperStates(page: Page): Promise<string[]> {
  return page
    .getByTestId('phase-stepper')
    .locator('[data-phase]')
    .evaluateAll((steps) => steps.map((step) => `${step.getAttribute('data-phase')}:${step.getAttribute('data-state')}`));
}

export async function checklistStatuses(page: Page): Promise<string[]> {
  return page
    .getByTestId('plan-checklist')
    .locator('[data-status]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-status') ?? ''));
}

/** Research answers at once, Plan with a plan of these items. */
export async function researchAndPlan(model: SteppedModel, ...labels: string[]): Promise<void> {
  await model.answer('research', say('The folder holds README.md and data/bank.csv, a two-column statement.'));
  await model.answer('plan', say(planText(...labels)));
}

/** An implement item that writes one file, then reports it done. */
export async function writeItem(model: SteppedModel, file: string, content: string): Promise<void> {
  await model.answer('implement', { toolCalls: [{ name: 'write_file', arguments: { path: file, content } }] });
  await model.answer('implement', say(`Wrote ${file}.`));
}

export const summaryText = '## Summary\n\nCreated **hello.txt** with a greeting.\n\n| file | change |\n|---|---|\n| hello.txt | created |\n';

/** Every file of the folder (outside .workbench/) with its content's hash. */
export async function folderHashes(folder: string): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for await (const entry of walkFiles(folder)) {
    hashes[entry.relPath] = createHash('sha256').update(await readFile(path.join(folder, entry.relPath))).digest('hex');
  }
  return hashes;
}
