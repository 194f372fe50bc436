import { isFileChangeTool } from '../contract/changes.js';
import type { Tool } from '../tools/tool.js';

/** What the user allowed for the rest of one request. */
export interface RequestScope {
  allows(tool: Tool, args: Record<string, unknown>): boolean;
  allow(tool: Tool, args: Record<string, unknown>): void;
}

/**
 * "Allow for the rest of this request", kept in memory by request (a resumed run is the same request):
 * for a file tool, every file change of the request; for run_command, that exact command; for any other
 * tool, that tool. Protected paths are never covered (the guard asks for them before it looks here), and
 * nothing is ever read from or written to the folder.
 */
export class RequestAllowances {
  private readonly byRequest = new Map<string, Set<string>>();

  for(messageId: string): RequestScope {
    return {
      allows: (tool, args) => this.byRequest.get(messageId)?.has(allowanceOf(tool, args)) ?? false,
      allow: (tool, args) => {
        const allowed = this.byRequest.get(messageId) ?? new Set<string>();
        allowed.add(allowanceOf(tool, args));
        this.byRequest.set(messageId, allowed);
      },
    };
  }
}

function allowanceOf(tool: Tool, args: Record<string, unknown>): string {
  if (isFileChangeTool(tool.name)) return 'file changes';
  if (tool.name === 'run_command') return `command ${typeof args['command'] === 'string' ? args['command'] : ''}`;
  return `tool ${tool.name}`;
}
