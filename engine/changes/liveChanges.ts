import { setTimeout as delay } from 'node:timers/promises';
import type { WorkbenchEvent } from '../contract/index.js';
import { toolCatalog } from '../tools/toolCatalog.js';

export interface LiveChangesOptions {
  subscribe(listener: (event: WorkbenchEvent) => void): () => void;
  /**
   * Recomputes the request's changes and emits `changes-updated` for them; `changedPaths` names the only
   * files changed since the last recount, null when anything may have changed.
   */
  announce(messageId: string, runId: string | null, changedPaths: readonly string[] | null): Promise<void>;
  /** Waits `ms`, or less when `signal` aborts (see minSpacingMs); a test gives its own, and its own clock. */
  pause?(ms: number, signal: AbortSignal): Promise<void>;
  now?(): number;
}

/**
 * The least time from one recount's start to the next's. A model that answers at once (a local one, a
 * cached reply) can make several calls in that time; they fold into one recount, which spares the engine
 * a recount per call while the count on screen stays a tenth of a second from the folder.
 */
export const minSpacingMs = 100;

const pauseFor = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => undefined);

export interface LiveChanges {
  /**
   * Resolves once no recount is running or due: the run waits for it before it says it finished. A run
   * whose recounts looked at named files only gets one more over the whole folder first, so the count it
   * ends with is a full recount's, whatever else changed the folder meanwhile (an editor, say).
   */
  settled(): Promise<void>;
  stop(): void;
}

interface Recount {
  runId: string | null;
  messageId: string;
  /** The files the calls since the last recount named as all they changed; null: any file. */
  paths: Set<string> | null;
}

/**
 * Keeps a running request's change list live: after each tool call that may have changed the folder
 * (any tool not known to be read-only, commands included) its changes are recounted and announced.
 * Recounts never overlap, and start at least minSpacingMs apart: calls finishing meanwhile fold into one
 * more (settled() does not wait out the spacing). A call that changes only the
 * files it names (see Tool.changedPaths) has those recounted; any other call, or one whose arguments the
 * user edited at its approval, has the whole folder looked at.
 */
export function followLiveChanges({ subscribe, announce, pause = pauseFor, now = () => performance.now() }: LiveChangesOptions): LiveChanges {
  const calls = new Map<string, { tool: string; paths: readonly string[] | null }>();
  let active: { runId: string | null; messageId: string } | null = null;
  let busy: Promise<void> | null = null;
  let pending: Recount | null = null;
  /** An approval answered with edited arguments: the call may change other files than it named. */
  let edited = false;
  /** A recount failed: the files its calls changed may not have been looked at, so the next looks at every file. */
  let unsure = false;
  /** The run has had a recount of named files only. */
  let narrowed = false;
  /** When the last recount started (now()). */
  let lastStart = -Infinity;
  /** Aborted to cut the spacing short while someone waits for the count (settled): `waiting` of them. */
  let hurry = new AbortController();
  let waiting = 0;

  const schedule = (target: { runId: string | null; messageId: string }, paths: readonly string[] | null) => {
    // A call folding into a recount still due for the same request adds its files to that recount's.
    const due = pending?.runId === target.runId && pending.messageId === target.messageId ? pending.paths : new Set<string>();
    pending = { ...target, paths: due && paths ? new Set([...due, ...paths]) : null };
    if (busy) return;
    busy = (async () => {
      while (pending) {
        const wait = lastStart + minSpacingMs - now();
        if (wait > 0 && !hurry.signal.aborted) await pause(wait, hurry.signal);
        lastStart = now();
        const next: Recount = pending;
        pending = null;
        const paths = next.paths && !unsure ? [...next.paths] : null;
        unsure = false;
        if (paths) narrowed = true;
        await announce(next.messageId, next.runId, paths).catch(() => {
          unsure = true;
        });
      }
      busy = null;
    })();
  };

  const stop = subscribe((event) => {
    switch (event.type) {
      case 'run-started':
        active = { runId: event.runId, messageId: event.messageId };
        calls.clear();
        narrowed = false;
        return;
      case 'tool-started':
        calls.set(event.callId, { tool: event.tool, paths: namedPaths(event.tool, event.args) });
        return;
      case 'approval-resolved':
        if (event.args) edited = true;
        return;
      case 'tool-finished': {
        const call = calls.get(event.callId);
        calls.delete(event.callId);
        const paths = edited ? null : (call?.paths ?? null);
        edited = false;
        if (active && toolCatalog.get(call?.tool ?? '')?.mutates !== false) schedule(active, paths);
        return;
      }
      case 'run-finished':
        active = null;
        return;
      default:
        return;
    }
  });
  const settled = async () => {
    waiting += 1;
    hurry.abort();
    try {
      await busy;
      if (active && narrowed) {
        narrowed = false;
        schedule(active, null);
        await busy;
      }
    } finally {
      waiting -= 1;
      if (waiting === 0) hurry = new AbortController();
    }
  };
  return { settled, stop };
}

/** The files a call of `tool` with these arguments changes, if that is all it can change (Tool.changedPaths). */
function namedPaths(tool: string, args: Record<string, unknown>): readonly string[] | null {
  const known = toolCatalog.get(tool);
  if (!known?.changedPaths) return null;
  const parsed = known.parameters.safeParse(args);
  return parsed.success ? known.changedPaths(parsed.data) : null;
}
