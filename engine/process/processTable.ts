import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';

const execFileText = promisify(execFile);

/** One running process as the system lists it. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** Process group id. */
  readonly pgid: number;
  /** Exited but not yet reaped by its parent: it runs nothing any more and cannot be signalled away. */
  readonly zombie: boolean;
  /** When it started (Linux), so a later process that is given the same pid is never mistaken for it; null elsewhere. */
  readonly startTime: string | null;
}

/** Every process on the system: read from /proc on Linux, from `ps` on other POSIX systems. */
export async function listProcesses(): Promise<ProcessInfo[]> {
  if (process.platform === 'linux') {
    const fromProc = await listFromProc();
    if (fromProc) return fromProc;
  }
  return listFromPs();
}

/**
 * The processes of a tree rooted at `pid`: the root, every member of the process group it leads, and all
 * their descendants, found by parent links — which also finds descendants that left the group with
 * setsid, as long as their parent is still alive. Zombies are left out: they are already gone.
 */
export function processTree(table: readonly ProcessInfo[], pid: number): ProcessInfo[] {
  const childrenOf = new Map<number, ProcessInfo[]>();
  for (const entry of table) {
    const siblings = childrenOf.get(entry.ppid);
    if (siblings) siblings.push(entry);
    else childrenOf.set(entry.ppid, [entry]);
  }
  const found = new Map<number, ProcessInfo>();
  const queue = table.filter((entry) => entry.pid === pid || entry.pgid === pid);
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (found.has(next.pid) || next.pid <= 1 || next.pid === process.pid) continue;
    found.set(next.pid, next);
    queue.push(...(childrenOf.get(next.pid) ?? []));
  }
  return [...found.values()].filter((entry) => !entry.zombie);
}

const scanLimitMs = 2000;

/** When a process started (Linux: clock ticks since boot, as in ProcessInfo.startTime); null when it cannot be told. */
export async function processStartTime(pid: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  return readProcStat(pid)?.startTime ?? null;
}

/** The variable runShellCommand gives each command, so its processes can be found wherever they went. */
export const commandMarkerVariable = 'RPI_WORKBENCH_COMMAND';

/**
 * The processes of `table` whose environment carries `commandMarkerVariable=marker`: every process a
 * command started, including one that double-forked with setsid and was adopted by init, which no parent
 * link leads to. Linux only (from /proc/<pid>/environ, of the processes this user may read); elsewhere,
 * and for a process that cleared its environment, none. Only processes that started no earlier than
 * `startedAfter` (the command's shell) are read, and the reads get `scanLimitMs` in all: a process stuck
 * in the kernel can hold its environ read up, and must not hold up the command's end.
 */
export async function markedProcesses(table: readonly ProcessInfo[], marker: string, startedAfter: string | null): Promise<ProcessInfo[]> {
  if (process.platform !== 'linux') return [];
  const entry = Buffer.from(`${commandMarkerVariable}=${marker}\0`);
  const since = startedAfter === null ? null : BigInt(startedAfter);
  const candidates = table.filter(
    (candidate) =>
      !candidate.zombie &&
      candidate.pid > 1 &&
      candidate.pid !== process.pid &&
      (since === null || candidate.startTime === null || BigInt(candidate.startTime) >= since),
  );
  const deadline = delay(scanLimitMs, null, { ref: false });
  const environments = await Promise.all(
    candidates.map((candidate) => Promise.race([readFile(`/proc/${candidate.pid}/environ`).catch(() => null), deadline])),
  );
  return candidates.filter((_, index) => {
    const environment = environments[index];
    if (!environment) return false;
    const at = environment.indexOf(entry);
    return at === 0 || (at > 0 && environment[at - 1] === 0);
  });
}

/** Those of `processes` that still run: not exited, not a zombie, and not replaced by a newer process with the same pid. */
export async function stillRunning(processes: readonly ProcessInfo[]): Promise<ProcessInfo[]> {
  if (processes.length === 0) return [];
  if (process.platform === 'linux') {
    const now = processes.map((entry) => readProcStat(entry.pid));
    return processes.filter((entry, index) => isSameLiveProcess(entry, now[index] ?? null));
  }
  const table = new Map((await listFromPs()).map((entry) => [entry.pid, entry]));
  return processes.filter((entry) => isSameLiveProcess(entry, table.get(entry.pid) ?? null));
}

function isSameLiveProcess(then: ProcessInfo, now: ProcessInfo | null): boolean {
  return now !== null && !now.zombie && now.startTime === then.startTime;
}

/**
 * The table from /proc, read synchronously: a stat file is made by the kernel from the process's task
 * without touching its memory map (unlike environ or cmdline, which can wait on a stuck process), in
 * microseconds, where an asynchronous read is four thread-pool round trips a process — a scan at every
 * command's end, over every process of the machine.
 */
async function listFromProc(): Promise<ProcessInfo[] | null> {
  const names = await readdir('/proc').catch(() => null);
  if (!names) return null;
  const pids = names.filter((name) => /^\d+$/.test(name)).map(Number);
  return pids.map(readProcStat).filter((entry) => entry !== null);
}

/** Parses /proc/<pid>/stat: "pid (comm) state ppid pgrp …", where comm may itself hold spaces and parentheses. */
function readProcStat(pid: number): ProcessInfo | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, ppid, pgid] = fields;
  const startTime = fields[19];
  if (state === undefined || ppid === undefined || pgid === undefined || startTime === undefined) return null;
  return { pid, ppid: Number(ppid), pgid: Number(pgid), zombie: state === 'Z' || state === 'X', startTime };
}

async function listFromPs(): Promise<ProcessInfo[]> {
  const { stdout } = await execFileText('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=']);
  return stdout.split('\n').flatMap((line) => {
    const [pid, ppid, pgid, state] = line.trim().split(/\s+/);
    if (pid === undefined || ppid === undefined || pgid === undefined || state === undefined) return [];
    return [{ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: state.startsWith('Z'), startTime: null }];
  });
}
