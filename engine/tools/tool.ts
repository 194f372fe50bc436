import type { z } from 'zod';
import type { TablePreview } from '../contract/tablePreview.js';
import type { SecretMask } from '../secrets/secretMask.js';
import type { Workspace } from '../workspace/workspace.js';

/** What a tool may touch: the folder, the abort signal, earlier results, a line log. Never the session. */
export interface ToolContext {
  readonly workspace: Workspace;
  /** Aborted when the user cancels the run; long tools stop and clean up. */
  readonly signal: AbortSignal;
  /** Earlier full results, for recall_tool_result. */
  readonly recall: (id: number) => Promise<RecalledResult | null>;
  /** Environment for child processes: the host's, with every secret already removed. */
  readonly childEnv: Readonly<Record<string, string>>;
  /** Progress lines a host may show while the tool runs (e.g. command output); not sent to the model. */
  readonly log: (line: string) => void;
  /**
   * Hides the secrets the engine knows (its API key, the credentials in its environment): executeToolCall
   * applies it to every result and argument before they are logged or reach the model.
   */
  readonly maskSecrets: SecretMask;
  /**
   * Asks the user a question (ask_user) and resolves with the text the model reads; absent where nobody
   * can be asked. Given to Research and Plan only.
   */
  readonly askUser?: (question: UserQuestion, signal: AbortSignal) => Promise<string>;
}

/** A question ask_user puts to the user, its secrets masked. */
export interface UserQuestion {
  question: string;
  choices?: string[];
  default?: string;
}

/** What a tool hands back: the text the model reads (and the tool log keeps), and structure for the UI beside it. */
export interface ToolResult {
  readonly text: string;
  /** The rows a table tool read, as the activity feed shows them: handed over as read, never parsed back out of `text`. */
  readonly preview?: TablePreview;
}

export interface RecalledResult {
  tool: string;
  result: string;
  ok: boolean;
}

/**
 * A failure the model should read and can act on ("old_text matches 3 times …"). Anything else a
 * handler throws is reported as an internal error of the tool.
 */
export class ToolError extends Error {
  override name = 'ToolError';
}

export interface Tool<Params = unknown> {
  readonly name: string;
  /** Written for the model: what the tool does, when to use it, what it returns. */
  readonly description: string;
  /** Validated before the handler runs; sent to the model as JSON Schema. */
  readonly parameters: z.ZodType<Params>;
  /** Sent to the model instead of `parameters` as JSON Schema: an MCP tool carries its server's own schema. */
  readonly jsonSchema?: Record<string, unknown>;
  /** Whether it changes the folder or runs a program (needs approval, never in Research or Plan). */
  readonly mutates: boolean;
  /**
   * For a tool that changes nothing but the files its arguments name (a write, an edit): those paths, as
   * given. A live count of the changes then looks at them alone; without it, at the whole folder.
   */
  changedPaths?(args: Params): readonly string[];
  /** Returns the result the model reads; throws ToolError or PathRefusedError for failures. */
  run(args: Params, context: ToolContext): Promise<ToolResult>;
}

/** Defines a tool with its parameter type inferred from the schema. */
export function defineTool<Schema extends z.ZodType>(tool: Tool<z.output<Schema>> & { parameters: Schema }): Tool<z.output<Schema>> {
  return tool;
}
