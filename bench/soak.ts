import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openWorkbench } from '../engine/index.js';
import { startFakeLlm, type ScriptedTurn } from '../tests/support/fakeLlm/index.js';
import { autoApprovals, call, say } from '../tests/support/rpiScript.js';
import { startRun } from '../tests/support/startRun.js';

/**
 * Soak: one run of 600 plan items, each a write and a final answer (so 1,200 model calls, 600 tool calls
 * and checkpoints), through the real workbench against the fake model over HTTP. The live heap after a full
 * GC at 25%, 50% and 100% of the items shows whether memory follows what the run needs now (goal: flat
 * within 20% after the first quarter) or everything it has done; the time per item per quarter whether
 * items slow down as the run grows.
 */
const items = 600;
const quarters = [0.25, 0.5, 0.75, 1] as const;

function planWith(count: number): string {
  const lines = Array.from({ length: count }, (_, index) => `- [ ] ${index + 1}. Write item ${index + 1} — create items/item-${index + 1}.txt holding its number`);
  return `# Execution Plan\n\n## Items\n${lines.join('\n')}\n`;
}

function script(): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [say('The folder is empty; each item writes one file.'), say(planWith(items))];
  for (let index = 1; index <= items; index += 1) turns.push(call('write_file', { path: `items/item-${index}.txt`, content: `${index}\n` }), say(`Wrote items/item-${index}.txt.`));
  turns.push(say(`Wrote ${items} files.`));
  return turns;
}

function liveHeapMb(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the soak bench with --expose-gc (npm run bench does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

export async function benchSoak(): Promise<void> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-soak-')));
  const llm = await startFakeLlm({ script: script(), keepRequests: false });
  await writeFile(path.join(root, 'README.md'), '# soak\n');
  const workbench = await openWorkbench(root, {
    llmSettings: async () => ({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model', contextWindow: 128_000, toolMode: 'native' }),
    approvals: async () => autoApprovals,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  try {
    const marks: { item: number; heapMb: number; atMs: number }[] = [];
    const started = performance.now();
    let nextMark = 0;
    const reached = new Set<number>();
    workbench.subscribe((event) => {
      if (event.type !== 'plan-updated') return;
      const done = event.items.filter((item) => item.status !== 'pending').length;
      const quarter = quarters[nextMark];
      if (quarter !== undefined && done >= items * quarter && !reached.has(done)) {
        reached.add(done);
        nextMark += 1;
        marks.push({ item: done, heapMb: Number.NaN, atMs: performance.now() - started });
      }
    });
    const heapBefore = liveHeapMb();
    const run = await startRun(workbench, 'Write one file per item');
    // Heap after GC at each mark, taken from outside the event handler once the run has gone on to the next item.
    const measured = new Set<number>();
    const measure = async () => {
      for (const mark of marks) if (!measured.has(mark.item)) {
        measured.add(mark.item);
        mark.heapMb = liveHeapMb();
      }
    };
    let finished = false;
    void run.finished.then(() => (finished = true));
    while (!finished) {
      await measure();
      await nextTurn();
    }
    await measure();
    const result = await run.finished;
    if (result.status !== 'done') throw new Error(`the soak run ended ${result.status}: ${result.error ?? ''}`);
    console.log(`soak: one run of ${items} plan items (${items * 2 + 3} model calls, ${items} writes, each checkpointed), fake model over HTTP`);
    console.log(`  live heap after GC: before the run ${heapBefore.toFixed(1)} MB`);
    let previousAt = 0;
    let previousItem = 0;
    for (const mark of marks) {
      const perItem = (mark.atMs - previousAt) / Math.max(1, mark.item - previousItem);
      console.log(`    at item ${String(mark.item).padStart(3)}: ${mark.heapMb.toFixed(1)} MB live; ${perItem.toFixed(1)} ms per item over the last quarter`);
      [previousAt, previousItem] = [mark.atMs, mark.item];
    }
    const first = marks[0]?.heapMb ?? Number.NaN;
    const last = marks.at(-1)?.heapMb ?? Number.NaN;
    console.log(`  growth after the first quarter: ${((last / first - 1) * 100).toFixed(0)}% (goal: within 20%)`);
  } finally {
    await workbench.close();
    await llm.close();
    await rm(root, { recursive: true, force: true });
  }
}
