import type { SecretMask } from '../../engine/secrets/secretMask.js';
import type { RecalledResult, Tool, ToolContext, ToolResult } from '../../engine/tools/tool.js';
import { Workspace } from '../../engine/workspace/workspace.js';

export interface TestToolContext extends ToolContext {
  /** Lines the tool logged, in order. */
  readonly logged: string[];
}

/** A real tool context on `root`: a real Workspace, a live signal unless one is given, no earlier results. */
export async function toolContextFor(
  root: string,
  options: { signal?: AbortSignal; recall?: (id: number) => Promise<RecalledResult | null>; childEnv?: Record<string, string>; maskSecrets?: SecretMask } = {},
): Promise<TestToolContext> {
  const logged: string[] = [];
  return {
    workspace: await Workspace.at(root),
    signal: options.signal ?? new AbortController().signal,
    recall: options.recall ?? (async () => null),
    childEnv: options.childEnv ?? { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    log: (line) => logged.push(line),
    maskSecrets: options.maskSecrets ?? ((text) => text),
    logged,
  };
}

/** Runs a tool the way the executor does after validation (arguments parsed by its own schema first); the text the model reads. */
export async function runTool<Params>(tool: Tool<Params>, args: unknown, context: ToolContext): Promise<string> {
  return (await runToolForResult(tool, args, context)).text;
}

/** As runTool, with the whole result: the text and the preview beside it. */
export async function runToolForResult<Params>(tool: Tool<Params>, args: unknown, context: ToolContext): Promise<ToolResult> {
  return tool.run(tool.parameters.parse(args), context);
}
