import type { ParsedPayload, RequestChannel, RequestHandlers } from '../contract/index.js';
import { listModels, type ModelListing } from '../llm/listModels.js';
import type { RecentFolders } from '../settings/recentFolders.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import type { Workbench } from '../workbench/openWorkbench.js';

export type SharedChannel = Exclude<RequestChannel, 'folders:pick' | 'folders:open' | 'host:info'>;

export interface SharedHandlerDeps {
  settings: SettingsStore;
  recent: RecentFolders;
  /** The workbench this page is bound to, or null while no folder is open. */
  currentWorkbench(): Workbench | null;
}

/**
 * Handlers every host answers the same way. Hosts add their own folder and host-info handlers, because
 * only they know whether a folder can be picked or switched.
 */
export function sharedHandlers(deps: SharedHandlerDeps): Pick<RequestHandlers, SharedChannel> {
  const workbench = (): Workbench => {
    const current = deps.currentWorkbench();
    if (!current) throw new Error('No folder is open: open a project folder first.');
    return current;
  };
  return {
    'workbench:snapshot': async () => (await deps.currentWorkbench()?.snapshot()) ?? null,
    'settings:get': () => deps.settings.get(),
    'settings:set': (patch) => deps.settings.update(patch),
    'folders:recent': () => deps.recent.list(),
    'session:send': async ({ prompt }) => ({ messageId: (await workbench().send(prompt)).messageId }),
    'session:cancel': async () => ({ cancelled: await workbench().cancel() }),
    'session:resume': async () => ({ runId: (await workbench().resume()).runId }),
    'session:approve': async ({ requestId, decision, args, alwaysAllow }) => ({
      decision: await workbench().approve(requestId, { decision, ...(args ? { args } : {}), ...(alwaysAllow ? { alwaysAllow } : {}) }),
    }),
    'session:undo': async ({ messageId }) => ({ restoredFiles: await workbench().undo(messageId) }),
    'session:regenerate': async ({ messageId }) => ({ messageId: (await workbench().regenerate(messageId)).messageId }),
    'session:undo-preview': ({ messageId }) => workbench().previewUndo(messageId),
    'session:review-plan': async (decision) => {
      workbench().reviewPlan(decision);
      return { decision: decision.decision };
    },
    'session:discard': async () => ({ discarded: await workbench().discard() }),
    'rpi:read': async ({ file }) => ({ text: await workbench().readRpiFile(file) }),
    'settings:test-connection': (form) => testConnection(deps.settings, form),
  };
}

/**
 * Lists the server's models with the settings form's values, each falling back to the saved one; a
 * failure is the LlmError's sentence (server unreachable, key refused, no model list). A key the form
 * leaves empty is the saved one, sent only to the base URL it was saved for: testing another server
 * without typing the key is refused (see SettingsStore.apiKeyFor), so no page can make the host send a
 * key to a URL of its choosing.
 */
async function testConnection(settings: SettingsStore, form: ParsedPayload<'settings:test-connection'>): Promise<ModelListing> {
  const saved = await settings.get();
  const baseUrl = form.baseUrl ?? saved.baseUrl;
  return listModels({
    baseUrl,
    model: form.model ?? saved.model,
    apiKey: form.apiKey ?? (await settings.apiKeyFor(baseUrl)),
  });
}
