import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openWorkbench } from '../engine/index.js';
import { startFakeLlm, type ScriptedTurn } from '../tests/support/fakeLlm/index.js';
import { autoApprovals, call, say } from '../tests/support/rpiScript.js';
import { startRun } from '../tests/support/startRun.js';

/**
 * Soak: one run of 600 plan items (SOAK_ITEMS), each a write and a final answer (so 1,200 model calls, 600 tool calls
 * and checkpoints), through the real workbench against the fake model over HTTP. The live heap after a full
 * GC at 25%, 50% and 100% of the items shows whether memory follows what the run needs now (goal: flat
 * within 20% after the first quarter) or everything it has done; the time per item per quarter whether
 * items slow down as the run grows.
 */
/** `SOAK_ITEMS=150 npm run bench -- soak` runs fewer items (to profile it, say); 600 by default. */
const items = itemCount(process.env.SOAK_ITEMS);
/** Goal: the last quarter's time per item at most this many times the first's. */
const flatGoal = 1.3;
const quarters = [0.25, 0.5, 0.75, 1] as const;

function itemCount(setting: string | undefined): number {
  if (setting === undefined || setting === '') return 600;
  const count = Number(setting);
  if (!Number.isInteger(count) || count < 4) throw new Error(`SOAK_ITEMS must be a whole number of at least 4, not "${setting}".`);
  return count;
}

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
    const marks: { item: number; heapMb: number; atMs: number; cpuMs: number }[] = [];
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    let nextMark = 0;
    const reached = new Set<number>();
    workbench.subscribe((event) => {
      if (event.type !== 'plan-updated') return;
      const done = event.items.filter((item) => item.status !== 'pending').length;
      const quarter = quarters[nextMark];
      if (quarter !== undefined && done >= items * quarter && !reached.has(done)) {
        reached.add(done);
        nextMark += 1;
        const cpu = process.cpuUsage(cpuStart);
        marks.push({ item: done, heapMb: Number.NaN, atMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 });
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
    let previous = { atMs: 0, cpuMs: 0, item: 0 };
    const perItem: number[] = [];
    const cpuPerItem: number[] = [];
    for (const mark of marks) {
      const count = Math.max(1, mark.item - previous.item);
      perItem.push((mark.atMs - previous.atMs) / count);
      cpuPerItem.push((mark.cpuMs - previous.cpuMs) / count);
      const times = `${perItem.at(-1)!.toFixed(1)} ms per item over the last quarter (CPU ${cpuPerItem.at(-1)!.toFixed(1)} ms)`;
      console.log(`    at item ${String(mark.item).padStart(3)}: ${mark.heapMb.toFixed(1)} MB live; ${times}`);
      previous = mark;
    }
    const first = marks[0]?.heapMb ?? Number.NaN;
    const last = marks.at(-1)?.heapMb ?? Number.NaN;
    console.log(`  growth after the first quarter: ${((last / first - 1) * 100).toFixed(0)}% (goal: within 20%)`);
    const lastOverFirst = (list: readonly number[]) => (list.at(-1) ?? Number.NaN) / (list[0] ?? Number.NaN);
    const slowdown = lastOverFirst(perItem);
    console.log(`  time per item, last quarter / first: ${slowdown.toFixed(2)}× (goal: ≤ ${flatGoal}×) — ${slowdown <= flatGoal ? 'met' : 'NOT met'}`);
    // The process's CPU time (engine, its workers and the fake model) is steadier than wall time on a loaded machine.
    console.log(`  CPU time per item, last quarter / first: ${lastOverFirst(cpuPerItem).toFixed(2)}×`);
  } finally {
    await workbench.close();
    await llm.close();
    await rm(root, { recursive: true, force: true });
  }
}
