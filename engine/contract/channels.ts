/**
 * The request channels, renderer → host. Kept free of zod so the sandboxed preload can bundle it
 * without pulling a schema library into every page.
 */
/** Requests about the folder open in the page: its workbench's handler table answers them. */
export const workbenchChannels = [
  'workbench:snapshot',
  'session:send',
  'session:cancel',
  'session:resume',
  'session:retry-failed',
  'session:approve',
  'session:answer-question',
  'session:undo',
  'session:regenerate',
  'session:undo-preview',
  'session:review-plan',
  'session:discard',
  'session:approval-preview',
  'changes:list',
  'changes:diffs',
  'changes:file',
  'changes:revert',
  'changes:undo-revert',
  'rpi:read',
  'context:paths',
  'session:run-file',
  'conversations:list',
  'conversations:new',
  'conversations:rename',
  'conversations:delete',
  'folder:check',
  'folder:set-check',
] as const;

/** Requests only a host can answer (a folder picker, the host's own abilities): each host adds their handlers. */
export const hostOnlyChannels = ['folders:pick', 'folders:open', 'host:info'] as const;

export const requestChannels = [
  ...workbenchChannels,
  'settings:get',
  'settings:set',
  'settings:test-connection',
  'mcp:list',
  'mcp:save',
  'mcp:remove',
  'mcp:set-enabled',
  'mcp:restart',
  'mcp:allow-tool',
  'folders:recent',
  ...hostOnlyChannels,
] as const;

export type RequestChannel = (typeof requestChannels)[number];
export type WorkbenchChannel = (typeof workbenchChannels)[number];
export type HostOnlyChannel = (typeof hostOnlyChannels)[number];

/** The browser host's WebSocket endpoint. */
export const socketPath = '/ws';

/**
 * The browser host's access token: in the fragment of the URL it prints (`#token=…`) and in the query
 * of the socket's URL (`/ws?token=…`); never in a cookie, which every port of the host would receive.
 */
export const socketTokenParam = 'token';

/** The one channel on which the host pushes events to a page. */
export const eventChannel = 'workbench:event';

/** What a native menu item asks the page to do (desktop only). */
export const desktopCommands = ['open-settings', 'stop-run', 'focus-composer', 'new-conversation'] as const;

export type DesktopCommand = (typeof desktopCommands)[number];

/** The channel on which the desktop host sends menu commands to a page. */
export const commandChannel = 'workbench:command';

export function isRequestChannel(value: unknown): value is RequestChannel {
  return typeof value === 'string' && (requestChannels as readonly string[]).includes(value);
}

export function isDesktopCommand(value: unknown): value is DesktopCommand {
  return typeof value === 'string' && (desktopCommands as readonly string[]).includes(value);
}
