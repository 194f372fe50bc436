import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { listProcesses, processTree } from '../../engine/process/processTable.js';

/**
 * What a test that failed shows about the processes it started and that still run (the tree and group
 * under it, by the engine's own process table): each one's command, and for a CLI started with
 * `reportOnSignal`, its JavaScript stack and the handles that keep it alive (Node's diagnostic report,
 * asked for with SIGUSR2) — so a hang seen once, on another machine, can be read from its log.
 */
export async function stuckReport(pid: number | undefined, summary: string, reportsDir: string | null): Promise<void> {
  const below = await descendants(pid);
  const lines = [summary, `processes under it still running: ${below.map((entry) => `${entry.pid} ${entry.command}`).join('; ') || 'none'}`];
  if (reportsDir !== null) {
    // Node processes only, the one started and those under it: a shell between `script` and the CLI would die of the signal.
    for (const candidate of [...(pid === undefined ? [] : [pid]), ...below.map((entry) => entry.pid)].filter(isNode)) lines.push(await nodeReport(candidate, reportsDir));
  }
  console.error(lines.join('\n'));
}

/** NODE_OPTIONS (added to those inherited) that have a CLI write a diagnostic report into `dir` on SIGUSR2. */
export function reportOnSignal(dir: string): Record<string, string> {
  const reports = path.join(dir, 'node-reports');
  mkdirSync(reports, { recursive: true });
  const inherited = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : '';
  return { NODE_OPTIONS: `${inherited}--report-on-signal --report-signal=SIGUSR2 ${JSON.stringify(`--report-directory=${reports}`)}` };
}

/** Whether the process runs this Node (its executable, from /proc). */
function isNode(pid: number): boolean {
  try {
    return readlinkSync(`/proc/${pid}/exe`) === realpathSync(process.execPath);
  } catch {
    return false;
  }
}

/** The processes of the tree under `pid` (a CLI under `script`, the commands it runs), each with its command line. */
async function descendants(pid: number | undefined): Promise<{ pid: number; command: string }[]> {
  if (pid === undefined) return [];
  const tree = processTree(await listProcesses(), pid).filter((entry) => entry.pid !== pid);
  return tree.map((entry) => ({ pid: entry.pid, command: commandLine(entry.pid) }));
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim().slice(0, 160);
  } catch {
    return '(ended meanwhile, or no /proc)';
  }
}

interface NodeReport {
  javascriptStack?: { message?: string; stack?: string[] };
  libuv?: { type: string; is_active: boolean; is_referenced?: boolean; details?: string; localEndpoint?: unknown; remoteEndpoint?: unknown }[];
  workers?: unknown[];
}

/** The process's report: its stack where the signal found it, and its active referenced handles. */
async function nodeReport(pid: number, dir: string): Promise<string> {
  const reports = path.join(dir, 'node-reports');
  try {
    process.kill(pid, 'SIGUSR2');
  } catch (error) {
    return `no report from ${pid}: ${String(error)}`;
  }
  // The report is written from the process's event loop: a loop that never turns writes none. (Polled,
  // and only once a test has failed: this is its report, not a wait for it to pass.)
  for (let waited = 0; waited < 3000; waited += 100) {
    const file = existsSync(reports) ? readdirSync(reports).find((name) => name.includes(`.${pid}.`)) : undefined;
    if (file !== undefined) {
      try {
        const report = JSON.parse(readFileSync(path.join(reports, file), 'utf8')) as NodeReport;
        const handles = (report.libuv ?? []).filter((handle) => handle.is_active && handle.is_referenced !== false);
        return [
          `report of ${pid}: stack ${JSON.stringify(report.javascriptStack?.stack?.slice(0, 12) ?? [])}`,
          `  active referenced handles: ${handles.map((handle) => JSON.stringify(handle)).join(', ') || 'none'}`,
          `  workers: ${report.workers?.length ?? 0}`,
        ].join('\n');
      } catch {
        // still being written
      }
    }
    await delay(100);
  }
  return `no report from ${pid} within 3 s: its event loop does not turn`;
}
