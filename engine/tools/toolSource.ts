import type { Phase } from '../contract/index.js';
import type { Tool } from './tool.js';

/**
 * Tools beyond the built-in catalog whose list can change while a run goes on (the user's MCP servers).
 * The agent loop asks before each model turn, so a change counts from the next turn, and a call is run
 * only when the tool was offered for that turn: what the source offers for a phase is what that phase
 * may call.
 */
export interface ToolSource {
  /** May wait for tools still coming (a server starting); resolves at once, with what it has, when `signal` aborts. */
  toolsFor(phase: Phase, signal?: AbortSignal): Promise<Tool[]>;
}
