import {
  workbenchChannels,
  type HostOnlyChannel,
  type ParsedPayload,
  type RequestChannel,
  type RequestHandlers,
  type WorkbenchChannel,
} from '../contract/index.js';
import { listModels, type ModelListing } from '../llm/listModels.js';
import type { McpSettings } from '../mcp/mcpSettings.js';
import type { UserMcp } from '../mcp/userMcp.js';
import type { RecentFolders } from '../settings/recentFolders.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import type { Workbench } from '../workbench/openWorkbench.js';

export interface HostHandlerDeps {
  settings: SettingsStore;
  recent: RecentFolders;
  /** The workbench this page is bound to, or null while no folder is open. */
  currentWorkbench(): Workbench | null;
  /** The user's MCP servers; a host without them answers every MCP request with a refusal. */
  mcp?: UserMcp;
}

/**
 * The one handler table of a page: requests about the open folder go to its workbench (whose own table
 * answers them), the user's settings, recent folders and MCP servers are answered here, and the requests
 * only a host can answer (`hostOnly`: picking or switching a folder, what the host can do) are its own.
 */
export function requestHandlers(deps: HostHandlerDeps, hostOnly: Pick<RequestHandlers, HostOnlyChannel>): RequestHandlers {
  return {
    ...workbenchRoutes(deps.currentWorkbench),
    'settings:get': () => deps.settings.get(),
    'settings:set': (patch) => deps.settings.update(patch),
    'settings:test-connection': (form) => testConnection(deps.settings, form),
    'folders:recent': () => deps.recent.list(),
    ...mcpHandlers(deps.mcp?.settingsFor(() => deps.currentWorkbench()?.mcp ?? null)),
    ...hostOnly,
  };
}

/** Each workbench channel, answered by the open folder's workbench; a snapshot with no folder open is null. */
function workbenchRoutes(current: () => Workbench | null): Pick<RequestHandlers, WorkbenchChannel> {
  const route = (channel: WorkbenchChannel) => async (payload: unknown) => {
    const workbench = current();
    if (workbench) return workbench.request(channel, payload as never);
    if (channel === 'workbench:snapshot') return null;
    throw new Error('No folder is open: open a project folder first.');
  };
  return Object.fromEntries(workbenchChannels.map((channel) => [channel, route(channel)])) as Pick<RequestHandlers, WorkbenchChannel>;
}

type McpChannel = Extract<RequestChannel, `mcp:${string}`>;

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
 * key to a URL of its choosing. With a `phase`, the phase's own connection is tested the same way with its own key.
 */
async function testConnection(settings: SettingsStore, form: ParsedPayload<'settings:test-connection'>): Promise<ModelListing> {
  if (form.phase) {
    // A phase's own connection: its saved URL and key, never the main key.
    const saved = await settings.phaseConnectionFor(form.phase, form.baseUrl);
    const model = form.model ?? saved.model;
    return listModels({ baseUrl: saved.baseUrl, ...(model ? { model } : {}), apiKey: form.apiKey ?? saved.apiKey });
  }
  const saved = await settings.get();
  const baseUrl = form.baseUrl ?? saved.baseUrl;
  return listModels({
    baseUrl,
    model: form.model ?? saved.model,
    apiKey: form.apiKey ?? (await settings.apiKeyFor(baseUrl)),
  });
}
