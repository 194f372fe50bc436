import { describe, expect, it } from 'vitest';
import { modelToolName } from '../../../engine/mcp/mcpToolNames.js';

describe('the names the model calls MCP tools by', () => {
  it('are mcp__<server>__<tool>, with what the API does not take in a function name turned into _', () => {
    expect(modelToolName('github', 'get_issue', new Set())).toBe('mcp__github__get_issue');
    expect(modelToolName('my.server', 'list files/v2', new Set())).toBe('mcp__my_server__list_files_v2');
  });

  it('end in a short hash of the whole when too long, and stay unique', () => {
    const long = modelToolName('a-very-long-server-name', 'a_tool_name_that_goes_on_and_on_and_on_for_ever', new Set());
    expect(long).toMatch(/^mcp__a-very-long-server-name__a_tool_name_that_goes_on_an_[0-9a-f]{6}$/);
    expect(long.length).toBe(64);
    expect(modelToolName('a.b', 'x', new Set(['mcp__a_b__x']))).toBe('mcp__a_b__x_2');
    expect(modelToolName('a.b', 'x', new Set(['mcp__a_b__x', 'mcp__a_b__x_2']))).toBe('mcp__a_b__x_3');
  });
});
