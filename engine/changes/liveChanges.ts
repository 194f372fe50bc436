import type { WorkbenchEvent } from '../contract/index.js';
import { toolCatalog } from '../tools/toolCatalog.js';

export interface LiveChangesOptions {
  subscribe(listener: (event: WorkbenchEvent) => void): () => void;
  /** Recomputes the request's changes and emits `changes-updated` for them. */
  announce(messageId: string, runId: string | null): Promise<void>;
}

export interface LiveChanges {
  /** Resolves once no recount is running or due: the run waits for it before it says it finished. */
  settled(): Promise<void>;
  stop(): void;
}

/**
 * Keeps a running request's change list live: after each tool call that may have changed the folder
 * (any tool not known to be read-only, commands included) its changes are recounted and announced.
 * Recounts never overlap: calls finishing meanwhile fold into one more.
 */
export function followLiveChanges({ subscribe, announce }: LiveChangesOptions): LiveChanges {
  const tools = new Map<string, string>();
  let active: { runId: string | null; messageId: string } | null = null;
  let busy: Promise<void> | null = null;
  let pending: { runId: string | null; messageId: string } | null = null;

  const schedule = (target: { runId: string | null; messageId: string }) => {
    pending = target;
    if (busy) return;
    busy = (async () => {
      while (pending) {
        const next: { runId: string | null; messageId: string } = pending;
        pending = null;
        await announce(next.messageId, next.runId).catch(() => undefined);
      }
      busy = null;
    })();
  };

  const stop = subscribe((event) => {
    switch (event.type) {
      case 'run-started':
        active = { runId: event.runId, messageId: event.messageId };
        tools.clear();
        return;
      case 'tool-started':
        tools.set(event.callId, event.tool);
        return;
      case 'tool-finished': {
        const tool = tools.get(event.callId);
        tools.delete(event.callId);
        if (active && toolCatalog.get(tool ?? '')?.mutates !== false) schedule(active);
        return;
      }
      case 'run-finished':
        active = null;
        return;
      default:
        return;
    }
  });
  return { settled: async () => void (await busy), stop };
}
