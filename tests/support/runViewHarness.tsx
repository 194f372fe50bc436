import { act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { requestsOver, type WorkbenchBridge } from '../../engine/contract/bridge.js';
import type { PublicSettings, RequestChannel, Result, Snapshot, UnsequencedEvent, WorkbenchEvent } from '../../engine/contract/index.js';
import { createWorkbenchStore } from '../../renderer/src/store/workbenchStore.js';
import { renderStarted } from './servedApp.js';
import { idleSnapshot } from './runViewFixture.js';

const settings: PublicSettings = {
  baseUrl: 'http://127.0.0.1:1/v1',
  model: 'fake-model',
  contextWindow: 32_000,
  toolMode: 'native',
  retries: 4,
  promptCaching: 'auto',
  price: null,
  apiKeySet: false,
  apiKeySource: 'none',
  models: { research: { use: 'default' }, plan: { use: 'default' }, implement: { use: 'default' }, summary: { use: 'default' } },
  approvals: { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: true },
};

type Answer = (payload: unknown) => Result<unknown>;

export interface Request {
  channel: RequestChannel;
  payload: unknown;
}

/**
 * A store over a hand-made bridge: requests are recorded and answered by `answers` (the channels a
 * start needs answer by themselves), and `emit` delivers engine events numbered on from the snapshot.
 */
export function runViewHarness({ snapshot = idleSnapshot, answers = {} }: { snapshot?: Snapshot; answers?: Partial<Record<RequestChannel, Answer>> } = {}) {
  const listeners = new Set<(event: WorkbenchEvent) => void>();
  const requests: Request[] = [];
  const answer: Partial<Record<RequestChannel, Answer>> = {
    'host:info': () => ({ ok: true, value: { kind: 'browser', canPickFolder: false, canStoreApiKey: false, folder: snapshot.folder } }),
    'settings:get': () => ({ ok: true, value: settings }),
    'workbench:snapshot': () => ({ ok: true, value: snapshot }),
    ...answers,
  };
  const bridge: WorkbenchBridge = {
    request: requestsOver(async (channel, payload) => {
      requests.push({ channel, payload });
      return answer[channel]?.(payload) ?? { ok: false, error: `${channel}: not answered in this test` };
    }),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const store = createWorkbenchStore(bridge);
  let seq = snapshot.lastSeq;

  return {
    store,
    /** The payloads sent on one channel, in order. */
    sent: (channel: RequestChannel) => requests.filter((request) => request.channel === channel).map((request) => request.payload),
    emit(...events: UnsequencedEvent[]) {
      act(() => {
        for (const event of events) {
          seq += 1;
          for (const listener of listeners) listener({ ...event, seq } as WorkbenchEvent);
        }
      });
    },
    render: (ui: ReactNode) => renderStarted(store, ui),
  };
}
