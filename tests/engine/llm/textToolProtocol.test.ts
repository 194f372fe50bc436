import { describe, expect, it } from 'vitest';
import { correctionMessage, parseTextReply, textToolInstructions, textToolResultMessage } from '../../../engine/llm/textToolProtocol.js';
import { toolCatalog, toolDefinitions, type ToolDefinition } from '../../../engine/tools/toolCatalog.js';

const tools = ['read_file', 'list_files', 'write_file'];
const fence = '```';
const block = (tag: string, body: string) => `${fence}${tag}\n${body}\n${fence}`;
const readApp = '{"tool": "read_file", "arguments": {"path": "src/app.ts"}}';

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}

describe('parseTextReply', () => {
  it.each<[string, string]>([
    ['plain prose', 'The bug is in src/app.ts: the loop starts at 1.'],
    ['an empty reply', ''],
    ['prose that mentions the word action', 'The next action is yours: run `npm test`. No action block is needed.'],
    ['a code block in another language', `Change it to:\n\n${block('ts', 'for (let i = 0; i < n; i++) {}')}\n`],
    ['a json block without a "tool" key', `The config should be:\n${block('json', '{"strict": true, "arguments": {"a": 1}}')}`],
    ['a json block naming no known tool', `Example:\n${block('json', '{"tool": "hammer", "arguments": {}}')}`],
    ['an untagged block naming no known tool', block('', '{"tool": "deploy"}')],
    ['an untagged block of invalid JSON', block('', '{"tool": read_file}')],
    ['an unterminated non-action block', 'Run this:\n```sh\nnpm test\n'],
    ['a fence written inline in prose', 'Wrap the call in a ```action``` block next time.'],
    ['an action example nested in a longer fence', `The format is:\n\`\`\`\`markdown\n${block('action', readApp)}\n\`\`\`\`\nThat is all.`],
    ['CRLF line ends and surrounding whitespace', '  \r\nDone.\r\n```ts\r\nx()\r\n```\r\n  '],
  ])('a reply with %s is the final answer, unchanged', (_case, text) => {
    expect(parseTextReply(text, tools)).toEqual({ kind: 'final', text });
  });

  it.each<[string, string, { name: string; arguments: Record<string, unknown>; reasoning: string }]>([
    ['an action block after reasoning', `I need the entry point.\n\n${block('action', readApp)}`, { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: 'I need the entry point.' }],
    ['only an action block', block('action', readApp), { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: '' }],
    ['CRLF line ends', `Reading.\r\n${block('action', readApp).replaceAll('\n', '\r\n')}\r\n`, { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: 'Reading.' }],
    ['an indented fence and surrounding whitespace', `\n\n  Reading.  \n   ${fence}action  \n   ${readApp}  \n   ${fence}  \n\n`, { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: 'Reading.' }],
    ['an upper-case tag', block('ACTION', readApp), { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: '' }],
    ['a longer fence', `\`\`\`\`action\n${readApp}\n\`\`\`\``, { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: '' }],
    ['pretty-printed JSON', block('action', '{\n  "tool": "list_files",\n  "arguments": {\n    "path": "src"\n  }\n}'), { name: 'list_files', arguments: { path: 'src' }, reasoning: '' }],
    ['the closing fence on the last JSON line', `${fence}action\n{"tool": "read_file",\n"arguments": {"path": "src/app.ts"}}${fence}`, { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: '' }],
    ['a json block naming a tool', `Listing.\n${block('json', '{"tool": "list_files", "arguments": {"path": "."}}')}`, { name: 'list_files', arguments: { path: '.' }, reasoning: 'Listing.' }],
    ['an untagged block naming a tool', block('', '{"tool": "list_files"}'), { name: 'list_files', arguments: {}, reasoning: '' }],
    ['"args" for the arguments', block('action', '{"tool": "read_file", "args": {"path": "a.ts"}}'), { name: 'read_file', arguments: { path: 'a.ts' }, reasoning: '' }],
    ['"input" for the arguments', block('action', '{"tool": "read_file", "input": {"path": "a.ts"}}'), { name: 'read_file', arguments: { path: 'a.ts' }, reasoning: '' }],
    ['no arguments', block('action', '{"tool": "list_files"}'), { name: 'list_files', arguments: {}, reasoning: '' }],
    ['null arguments', block('action', '{"tool": "list_files", "arguments": null}'), { name: 'list_files', arguments: {}, reasoning: '' }],
    ['arguments as a JSON string', block('action', '{"tool": "read_file", "arguments": "{\\"path\\": \\"a.ts\\"}"}'), { name: 'read_file', arguments: { path: 'a.ts' }, reasoning: '' }],
    ['a tool name with stray spaces', block('action', '{"tool": " list_files ", "arguments": {}}'), { name: 'list_files', arguments: {}, reasoning: '' }],
    [
      'fences inside a JSON string',
      block('action', '{"tool": "write_file", "arguments": {"path": "README.md", "content": "```sh\\nnpm test\\n```\\n"}}'),
      { name: 'write_file', arguments: { path: 'README.md', content: '```sh\nnpm test\n```\n' }, reasoning: '' },
    ],
    [
      'other code blocks and text after the action',
      `The loop is:\n${block('ts', 'for (;;) {}')}\n${block('action', readApp)}\nThen I will fix it.`,
      { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: `The loop is:\n${block('ts', 'for (;;) {}')}\n\nThen I will fix it.` },
    ],
    [
      'a json example beside the action',
      `${block('json', '{"strict": true}')}\n${block('action', readApp)}`,
      { name: 'read_file', arguments: { path: 'src/app.ts' }, reasoning: block('json', '{"strict": true}') },
    ],
  ])('a reply with %s is a call', (_case, text, call) => {
    expect(parseTextReply(text, tools)).toEqual({ kind: 'call', ...call });
  });

  it.each<[string, string, string[]]>([
    ['invalid JSON, with the parser message', block('action', '{"tool": read_file}'), ['not valid JSON', jsonError('{"tool": read_file}')]],
    ['invalid pretty-printed JSON', block('action', '{\n  "tool": "read_file",\n}'), ['not valid JSON']],
    ['an empty block', block('action', ''), ['not valid JSON', jsonError('')]],
    ['a raw line break inside a string', block('action', '{"tool": "write_file", "arguments": {"content": "a\nb"}}'), ['not valid JSON', 'write line breaks inside strings as \\n']],
    ['an array', block('action', '[{"tool": "read_file"}]'), ['holds an array', 'one JSON object']],
    ['a bare string', block('action', '"read_file"'), ['holds a string', 'one JSON object']],
    ['null', block('action', 'null'), ['holds null']],
    ['no "tool" key', block('action', '{"name": "read_file", "arguments": {}}'), ['no "tool" key']],
    ['an empty tool name', block('action', '{"tool": "", "arguments": {}}'), ['no "tool" key']],
    ['a tool name that is not a string', block('action', '{"tool": 3}'), ['no "tool" key']],
    ['an unknown tool', block('action', '{"tool": "delete_everything"}'), ['no tool named "delete_everything"', 'read_file, list_files, write_file']],
    ['arguments that are an array', block('action', '{"tool": "read_file", "arguments": ["a.ts"]}'), ['"arguments" of the read_file action must be a JSON object', 'not an array']],
    ['args that are a number', block('action', '{"tool": "read_file", "args": 7}'), ['"args" of the read_file action', 'not a number']],
    ['arguments in a string that is not an object', block('action', '{"tool": "read_file", "arguments": "a.ts"}'), ['must be a JSON object', 'not a string']],
    ['two action blocks', `${block('action', readApp)}\n${block('action', '{"tool": "list_files"}')}`, ['2 action blocks', 'one action per reply']],
    ['an action block and a json action', `${block('action', readApp)}\n${block('json', '{"tool": "list_files"}')}`, ['2 action blocks']],
    ['two blocks, one of them broken', `${block('action', '{oops')}\n${block('action', readApp)}`, ['2 action blocks']],
    ['an unterminated action fence', `Reading.\n${fence}action\n${readApp}\n`, ['never closed', 'three backticks']],
    ['an unterminated json action', `${fence}json\n{"tool": "list_files"}`, ['never closed']],
  ])('a reply with %s is malformed, with one sentence saying why', (_case, text, fragments) => {
    const parsed = parseTextReply(text, tools);

    expect(parsed.kind).toBe('malformed');
    const problem = parsed.kind === 'malformed' ? parsed.problem : '';
    for (const fragment of fragments) expect(problem).toContain(fragment);
    expect(problem).toMatch(/^[A-Z][^\n]*\.$/);
  });
});

describe('textToolInstructions', () => {
  const definitions: ToolDefinition[] = [
    {
      type: 'function',
      function: {
        name: 'search_files',
        description: 'Search file contents with a regular expression.',
        parameters: {
          type: 'object',
          properties: {
            pattern: { type: 'string', description: 'The regular expression.' },
            path: { type: 'string', default: '.', description: 'Folder to search.' },
            max_results: { type: 'integer', description: 'At most this many lines.' },
            mode: { enum: ['lines', 'files'], description: 'What to list.' },
            globs: { type: 'array', items: { type: 'string' } },
            limit: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
          },
          required: ['pattern'],
        },
      },
    },
    { type: 'function', function: { name: 'list_roots', description: 'List the workspace roots.', parameters: { type: 'object', properties: {} } } },
  ];
  const instructions = textToolInstructions(definitions);

  it('states the exact format, one action per reply, and how to give the final answer', () => {
    expect(instructions).toContain('```action\n{"tool": "tool_name", "arguments": {"parameter_name": "value"}}\n```');
    expect(instructions).toContain('exactly one code block tagged `action`');
    expect(instructions).toContain('One action per reply');
    expect(instructions).toContain('final answer in a reply with no action block');
  });

  it('teaches the format the parser reads', () => {
    const example = /```action\n.*\n```/.exec(instructions)?.[0] ?? '';

    expect(parseTextReply(example, ['tool_name'])).toEqual({ kind: 'call', name: 'tool_name', arguments: { parameter_name: 'value' }, reasoning: '' });
  });

  it('describes each tool with its parameters, types, and whether each is required or has a default', () => {
    expect(instructions).toContain(
      [
        '## search_files',
        'Search file contents with a regular expression.',
        'Parameters:',
        '- pattern (string, required): The regular expression.',
        '- path (string, default "."): Folder to search.',
        '- max_results (integer, optional): At most this many lines.',
        '- mode (one of "lines", "files", optional): What to list.',
        '- globs (array of string, optional)',
        '- limit (integer or null, optional)',
      ].join('\n'),
    );
    expect(instructions).toContain('## list_roots\nList the workspace roots.\nParameters: none.');
  });

  it('covers every tool of the catalog, with each parameter marked required or not', () => {
    const catalog = toolDefinitions([...toolCatalog.values()]);
    const text = textToolInstructions(catalog);

    for (const { function: tool } of catalog) {
      expect(text).toContain(`## ${tool.name}\n${tool.description}\n`);
      for (const parameter of Object.keys(tool.parameters.properties as object)) {
        expect(text).toMatch(new RegExp(`^- ${parameter} \\([\\w ]+, (required|optional|default [^)]+)\\)`, 'm'));
      }
    }
  });
});

describe('correctionMessage', () => {
  it('says what was wrong, repeats the exact format, and asks for exactly one block', () => {
    const message = correctionMessage('The action block is never closed; end it with a line of three backticks (```).');

    expect(message).toContain('could not be acted on: The action block is never closed');
    expect(message).toContain('```action\n{"tool": "tool_name", "arguments": {"parameter_name": "value"}}\n```');
    expect(message).toContain('Send exactly one block per reply');
    expect(message).toContain('reply without an action block');
  });
});

describe('textToolResultMessage', () => {
  it('names the tool and marks the text as tool output, not the user', () => {
    const message = textToolResultMessage('read_file', 'a.ts: lines 1–1 of 1\n1\thello');

    expect(message).toBe('Result of your read_file action (tool output, not a message from the user):\n```\na.ts: lines 1–1 of 1\n1\thello\n```');
  });

  it('fences a result containing fences with a longer fence, so the result cannot end the block', () => {
    const result = '# README\n```sh\nnpm test\n```';

    expect(textToolResultMessage('read_file', result)).toContain(`\n\`\`\`\`\n${result}\n\`\`\`\``);
  });
});
