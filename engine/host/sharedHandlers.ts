import type { ParsedPayload, RequestChannel, RequestHandlers } from '../contract/index.js';
import { listModels, type ModelListing } from '../llm/listModels.js';
import type { RecentFolders } from '../settings/recentFolders.js';
import type { McpSettings } from '../mcp/mcpSettings.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import type { Workbench } from '../workbench/openWorkbench.js';

export type SharedChannel = Exclude<RequestChannel, 'folders:pick' | 'folders:open' | 'host:info'>;

export interface SharedHandlerDeps {
  settings: SettingsStore;
  recent: RecentFolders;
  /** The workbench this page is bound to, or null while no folder is open. */
  currentWorkbench(): Workbench | null;
  /** The user's MCP servers; a host without them answers every MCP request with a refusal. */
  mcp?: McpSettings;
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
    'session:send': async ({ prompt, context }) => ({ messageId: (await workbench().send(prompt, context ? { context } : {})).messageId }),
    'session:cancel': async () => ({ cancelled: await workbench().cancel() }),
    'session:resume': async () => ({ runId: (await workbench().resume()).runId }),
    'session:retry-failed': async () => ({ runId: (await workbench().retryFailed()).runId }),
    'session:approve': async ({ requestId, decision, args, alwaysAllow, allowForRequest }) => ({
      decision: await workbench().approve(requestId, {
        decision,
        ...(args ? { args } : {}),
        ...(alwaysAllow ? { alwaysAllow } : {}),
        ...(allowForRequest ? { allowForRequest } : {}),
      }),
    }),
    'session:undo': async ({ messageId }) => ({ restoredFiles: await workbench().undo(messageId) }),
    'session:regenerate': async ({ messageId }) => ({ messageId: (await workbench().regenerate(messageId)).messageId }),
    'session:undo-preview': ({ messageId }) => workbench().previewUndo(messageId),
    'session:review-plan': async (decision) => {
      workbench().reviewPlan(decision);
      return { decision: decision.decision };
    },
    'session:discard': async () => ({ discarded: await workbench().discard() }),
    'session:approval-preview': ({ requestId, args }) => workbench().previewApproval(requestId, args),
    'changes:list': ({ messageId, range }) => workbench().changes(messageId, range),
    'changes:file': ({ messageId, path, range }) => workbench().fileDiff(messageId, path, range),
    'changes:revert': ({ messageId, paths }) => workbench().revertFiles(messageId, paths),
    'changes:undo-revert': ({ revertId, paths }) => workbench().undoRevert(revertId, paths),
    'rpi:read': async ({ file }) => ({ text: await workbench().readRpiFile(file) }),
    'context:paths': ({ query }) => workbench().searchPaths(query),
    'session:run-file': ({ messageId, file }) => workbench().readRunFile(messageId, file),
    'settings:test-connection': (form) => testConnection(deps.settings, form),
    ...mcpHandlers(deps.mcp),
  };
}

type McpChannel = Extract<SharedChannel, `mcp:${string}`>;

function mcpHandlers(mcp: McpSettings | undefined): Pick<RequestHandlers, McpChannel> {
  const settings = (): McpSettings => {
    if (!mcp) throw new Error('This host runs no MCP servers.');
    return mcp;
  };
  return {
    'mcp:list': () => settings().overview(),
    'mcp:save': ({ server, previousName }) => settings().save(server, previousName),
    'mcp:remove': ({ name }) => settings().remove(name),
    'mcp:set-enabled': ({ name, enabled }) => settings().setEnabled(name, enabled),
    'mcp:restart': ({ name }) => settings().restart(name),
    'mcp:allow-tool': ({ server, tool, allowed }) => settings().allowTool(server, tool, allowed),
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
