import { createHash } from 'node:crypto';

/** The longest function name the Chat Completions API accepts. */
const maxNameLength = 64;

import { mcpToolPrefix } from '../contract/mcpToolName.js';

export { mcpToolPrefix };

/**
 * The name the model calls a server's tool by: `mcp__<server>__<tool>`, with every character the API
 * does not accept in a function name (`^[a-zA-Z0-9_-]{1,64}$`) turned into `_`. A name too long is cut
 * and ends in a short hash of the whole; one that is already `taken` gets a number.
 */
export function modelToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const whole = `${mcpToolPrefix}${safe(server)}__${safe(tool)}`;
  const base = whole.length <= maxNameLength ? whole : `${whole.slice(0, maxNameLength - 7)}_${createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 6)}`;
  if (!taken.has(base)) return base;
  for (let count = 2; ; count += 1) {
    const suffix = `_${count}`;
    const numbered = `${base.slice(0, maxNameLength - suffix.length)}${suffix}`;
    if (!taken.has(numbered)) return numbered;
  }
}

function safe(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}
