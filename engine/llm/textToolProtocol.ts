/**
 * The text tool protocol, for models without native tool calling: the tools are described in the
 * system prompt, and the model calls one by ending its reply with a single fenced `action` block
 * holding {"tool": …, "arguments": {…}}. A reply without one is the final answer.
 */
import type { ToolDefinition } from '../tools/toolCatalog.js';

export type ParsedReply =
  /** No action block: the reply is the model's final answer, unchanged. */
  | { kind: 'final'; text: string }
  /** Exactly one valid action block; `reasoning` is the text around it, trimmed. */
  | { kind: 'call'; name: string; arguments: Record<string, unknown>; reasoning: string }
  /** An action block that cannot be acted on; `problem` is one sentence addressed to the model. */
  | { kind: 'malformed'; problem: string };

const actionFormat = '```action\n{"tool": "tool_name", "arguments": {"parameter_name": "value"}}\n```';
const argumentKeys = ['arguments', 'args', 'input'] as const;

/** Instructions appended to the system prompt: the protocol, then every tool with its parameters. */
export function textToolInstructions(tools: readonly ToolDefinition[]): string {
  return [
    'To call a tool, end your reply with exactly one code block tagged `action`, holding a JSON object with the tool name and its arguments:',
    actionFormat,
    [
      'Rules:',
      '- One action per reply. Write your reasoning before the block and nothing after it.',
      '- The block must be valid JSON: double quotes around keys and strings, and line breaks inside strings written as \\n.',
      '- After the block, stop. The result comes back in the next message; never write a result yourself.',
      '- When you are done, give your final answer in a reply with no action block.',
    ].join('\n'),
    'The tools you can call:',
    ...tools.map(toolText),
  ].join('\n\n');
}

/** The user message sent back after a malformed action block, so the model can resend it correctly. */
export function correctionMessage(problem: string): string {
  return [
    `Your last reply could not be acted on: ${problem}`,
    `To call a tool, end your reply with exactly one action block in this format:\n${actionFormat}`,
    'Send exactly one block per reply. To give your final answer instead, reply without an action block.',
  ].join('\n\n');
}

/** The user message carrying a tool's result in text mode, marked so it cannot pass for the user's words. */
export function textToolResultMessage(tool: string, result: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(result) + 1));
  return `Result of your ${tool} action (tool output, not a message from the user):\n${fence}\n${result}\n${fence}`;
}

/**
 * Reads one reply. Lenient about form (CRLF, indentation, json or untagged fences that name a tool,
 * "args"/"input", double-encoded arguments), strict about anything that would run the wrong call.
 */
export function parseTextReply(text: string, toolNames: readonly string[]): ParsedReply {
  const normalized = text.replace(/\r\n?/g, '\n');
  const actions = fencedBlocks(normalized).filter((block) => block.tag === 'action' || looksLikeAction(block, toolNames));
  const [action, ...others] = actions;
  if (!action) return { kind: 'final', text };
  if (others.length > 0) {
    return { kind: 'malformed', problem: `The reply has ${actions.length} action blocks; send one action per reply and wait for its result.` };
  }
  if (!action.closed) {
    return { kind: 'malformed', problem: 'The action block is never closed; end it with a line of three backticks (```).' };
  }
  const call = actionCall(action.content, toolNames);
  if ('problem' in call) return { kind: 'malformed', problem: call.problem };
  const reasoning = [normalized.slice(0, action.start), normalized.slice(action.end)]
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n\n');
  return { kind: 'call', ...call, reasoning };
}

interface FencedBlock {
  /** The first word of the info string, lower-cased; '' for an untagged fence. */
  tag: string;
  content: string;
  closed: boolean;
  /** Character offsets of the whole block, fences included. */
  start: number;
  end: number;
}

/** Backtick fences as Markdown reads them: a closing fence is at least as long as its opening one. */
function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: { tag: string; fence: string; start: number; contentStart: number } | null = null;
  for (const line of linesWithOffsets(text)) {
    if (!open) {
      const opening = /^\s*(`{3,})\s*([^`\s]*)[^`]*$/.exec(line.text);
      if (opening) {
        open = { tag: (opening[2] ?? '').toLowerCase(), fence: opening[1] ?? '', start: line.start, contentStart: line.end + 1 };
      }
      continue;
    }
    const closing = closingFence(line.text, open);
    if (closing !== null) {
      const content = (text.slice(open.contentStart, line.start) + closing).replace(/\n$/, '');
      blocks.push({ tag: open.tag, content, closed: true, start: open.start, end: line.end });
      open = null;
    }
  }
  if (open) blocks.push({ tag: open.tag, content: text.slice(open.contentStart), closed: false, start: open.start, end: text.length });
  return blocks;
}

/**
 * Null when the line does not close the block; otherwise the content on the line before the fence.
 * Only an action block may close at the end of a content line (`…}}```` is a common slip): a JSON
 * line cannot legitimately end in backticks, but other code can.
 */
function closingFence(line: string, open: { tag: string; fence: string }): string | null {
  const trimmed = line.trim();
  if (trimmed.startsWith(open.fence) && /^`+$/.test(trimmed)) return '';
  if (open.tag === 'action' && trimmed.endsWith('```')) return trimmed.replace(/`+$/, '');
  return null;
}

function* linesWithOffsets(text: string): Generator<{ text: string; start: number; end: number }> {
  let start = 0;
  for (const line of text.split('\n')) {
    yield { text: line, start, end: start + line.length };
    start += line.length + 1;
  }
}

/** A json or untagged block counts as an action only when it names a real tool, so JSON examples in answers stay text. */
function looksLikeAction(block: FencedBlock, toolNames: readonly string[]): boolean {
  if (block.tag !== '' && block.tag !== 'json') return false;
  const value = parseJson(block.content);
  return value.ok && isObject(value.value) && typeof value.value.tool === 'string' && toolNames.includes(value.value.tool);
}

function actionCall(content: string, toolNames: readonly string[]): { name: string; arguments: Record<string, unknown> } | { problem: string } {
  const parsed = parseJson(content);
  if (!parsed.ok) return { problem: `The action block is not valid JSON (${parsed.error}).` };
  const action = parsed.value;
  if (!isObject(action)) {
    return { problem: `The action block holds ${kindOf(action)}, but it must hold one JSON object: {"tool": "tool_name", "arguments": {…}}.` };
  }
  if (typeof action.tool !== 'string' || action.tool.trim() === '') {
    return { problem: 'The action block has no "tool" key naming the tool to call.' };
  }
  const name = action.tool.trim();
  if (!toolNames.includes(name)) return { problem: `There is no tool named "${name}"; the tools you can call are ${toolNames.join(', ')}.` };
  const key = argumentKeys.find((candidate) => action[candidate] !== undefined && action[candidate] !== null);
  if (!key) return { name, arguments: {} };
  const args = argumentsObject(action[key]);
  if (!args) return { problem: `The "${key}" of the ${name} action must be a JSON object of parameter names and values, not ${kindOf(action[key])}.` };
  return { name, arguments: args };
}

/** Arguments as an object, or as a JSON string holding one (some models double-encode them). */
function argumentsObject(value: unknown): Record<string, unknown> | null {
  if (isObject(value)) return value;
  if (typeof value !== 'string') return null;
  const parsed = parseJson(value);
  return parsed.ok && isObject(parsed.value) ? parsed.value : null;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    const hint = /control character/i.test(message) ? '; write line breaks inside strings as \\n' : '';
    return { ok: false, error: `${message}${hint}` };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

function toolText({ function: tool }: ToolDefinition): string {
  const properties = isObject(tool.parameters.properties) ? tool.parameters.properties : {};
  const required = Array.isArray(tool.parameters.required) ? tool.parameters.required : [];
  const parameters = Object.entries(properties).map(([name, schema]) => parameterText(name, isObject(schema) ? schema : {}, required.includes(name)));
  return [`## ${tool.name}`, tool.description, parameters.length > 0 ? `Parameters:\n${parameters.join('\n')}` : 'Parameters: none.'].join('\n');
}

function parameterText(name: string, schema: Record<string, unknown>, required: boolean): string {
  const presence = required ? 'required' : schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : 'optional';
  const description = typeof schema.description === 'string' ? `: ${schema.description}` : '';
  return `- ${name} (${typeText(schema)}, ${presence})${description}`;
}

function typeText(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return variants.map((variant) => typeText(isObject(variant) ? variant : {})).join(' or ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array' && isObject(schema.items)) return `array of ${typeText(schema.items)}`;
  return typeof schema.type === 'string' ? schema.type : 'any';
}
