import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { listProcesses, markedProcesses, processTree, stillRunning, type ProcessInfo } from './processTable.js';

export interface KillProcessTreeOptions {
  /**
   * The root of the tree; on POSIX also the id of the process group it leads (it was spawned detached).
   * Null when it is not known: only the processes carrying `marker` are stopped.
   */
  readonly pid: number | null;
  /** How long the tree gets to exit after SIGTERM before everything still running gets SIGKILL. */
  readonly graceMs?: number;
  /**
   * The root has exited and been reaped, so its pid may belong to another process by now: only what is
   * left of its group, and their descendants, is stopped (a group id is not reused while a member lives).
   */
  readonly rootExited?: boolean;
  /**
   * The command's `commandMarkerVariable` value: processes carrying it are stopped too, wherever they are
   * in the process tree (Linux; see markedProcesses).
   */
  readonly marker?: string;
  /** When the command's shell started (processStartTime): only processes as young are searched for the marker. */
  readonly startedAfter?: string | null;
}

const defaultGraceMs = 2000;
const pollMs = 50;
const killLandingMs = 1000;

/**
 * Stops a process, the process group it leads, all their descendants, and every process carrying the
 * command's marker (which finds those that double-forked away from the tree). The tree is collected before
 * anything is signalled, because a descendant that called setsid has left the group and can only be found
 * through its parent, which the first signal may kill. SIGTERM goes to the group and to every process
 * found; after the grace, whatever still runs (and anything it started meanwhile) gets SIGKILL. Resolves
 * when all are gone, or once SIGKILL has had a moment to land (a process stuck in the kernel can outlast
 * it). Returns how many processes it found to stop; 0 when the tree was already gone.
 *
 * On Windows it runs `taskkill /T /F`, which kills the tree at once, cannot reach children of a root that
 * has already exited, and does not say how many it stopped (1 stands for "some").
 */
export async function killProcessTree({ pid, graceMs = defaultGraceMs, rootExited = false, marker, startedAfter = null }: KillProcessTreeOptions): Promise<number> {
  if (process.platform === 'win32') return rootExited || pid === null ? 0 : taskkill(pid);
  const table = await listProcesses().catch(() => null);
  if (!table) return pid === null ? 0 : killGroupBlindly(pid);
  const rootReused = rootExited && table.some((entry) => entry.pid === pid);
  const marked = marker === undefined ? [] : await markedProcesses(table, marker, startedAfter);
  const targets = byPid([...(rootReused || pid === null ? [] : processTree(table, pid)), ...marked.flatMap((entry) => processTree(table, entry.pid))]);
  if (targets.length === 0) return 0;
  signalAll(targets, pid, 'SIGTERM');
  const survivors = await runningAfter(targets, graceMs);
  if (survivors.length > 0) {
    const now = await listProcesses().catch(() => []);
    const everything = byPid([...survivors, ...survivors.flatMap((survivor) => processTree(now, survivor.pid))]);
    signalAll(everything, pid, 'SIGKILL');
    await runningAfter(everything, killLandingMs);
  }
  return targets.length;
}

/**
 * Signals the group and each process. The group only while one of `targets` (each checked to be the
 * process that was found) is a member, so the id cannot have passed to another group.
 */
function signalAll(targets: readonly ProcessInfo[], group: number | null, signal: NodeJS.Signals): void {
  if (group !== null && targets.some((target) => target.pgid === group)) send(-group, signal);
  for (const target of targets) send(target.pid, signal);
}

/** Whether the signal was delivered; a process that is gone or not ours is no error. */
function send(pid: number, signal: NodeJS.Signals): boolean {
  try {
    return process.kill(pid, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw error;
  }
}

/** Polls until none of `processes` runs or `ms` has passed; returns those still running. */
async function runningAfter(processes: readonly ProcessInfo[], ms: number): Promise<ProcessInfo[]> {
  const deadline = performance.now() + ms;
  let running = await stillRunning(processes);
  while (running.length > 0 && performance.now() < deadline) {
    await delay(pollMs);
    running = await stillRunning(running);
  }
  return running;
}

/** Without a process list (no /proc and no working `ps`) only the group can be reached: SIGKILL it at once. */
function killGroupBlindly(group: number): number {
  return send(-group, 'SIGKILL') ? 1 : 0;
}

function byPid(processes: readonly ProcessInfo[]): ProcessInfo[] {
  return [...new Map(processes.map((entry) => [entry.pid, entry])).values()];
}

function taskkill(pid: number): Promise<number> {
  return new Promise((resolve) => {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.on('error', () => resolve(0));
    killer.on('close', (code) => resolve(code === 0 ? 1 : 0));
  });
}
