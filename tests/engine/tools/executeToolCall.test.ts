import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Phase } from '../../../engine/contract/index.js';
import { secretMask, type SecretMask } from '../../../engine/secrets/secretMask.js';
import { openToolLog } from '../../../engine/store/toolLog.js';
import { executeToolCall, type ToolCallRequest } from '../../../engine/tools/executeToolCall.js';
import { contextResultChars } from '../../../engine/tools/resultCap.js';
import { defineTool, ToolError, type Tool } from '../../../engine/tools/tool.js';
import { toolCatalog, toolDefinitions, toolsForPhase } from '../../../engine/tools/toolCatalog.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { toolContextFor } from '../../support/toolContext.js';

/** A project folder with its tool log, and a way to run calls in a phase as the agent loop will. */
async function project(tempFolder: () => Promise<string>, files: Record<string, string> = {}, maskSecrets?: SecretMask) {
  const root = await tempFolder();
  await writeTree(root, files);
  const stateDir = path.join(root, '.workbench');
  const log = await openToolLog(stateDir);
  const context = await toolContextFor(root, { recall: log.recall, ...(maskSecrets ? { maskSecrets } : {}) });
  const call = (phase: Phase, request: ToolCallRequest, catalog?: ReadonlyMap<string, Tool>) =>
    executeToolCall(request, { phase, runId: 'run-1', context, log, ...(catalog ? { catalog } : {}) });
  const logged = async () => (await readFile(path.join(stateDir, 'tool-log.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
  return { root, call, logged };
}

describe('executeToolCall', () => {
  const tempFolder = useTempFolders();

  it('runs a call and records it in the tool log with run, phase, args, full result and duration', async () => {
    const { call, logged } = await project(tempFolder, { 'a.txt': 'hello\n' });

    const executed = await call('research', { name: 'read_file', arguments: '{"path":"a.txt"}' });

    expect(executed).toMatchObject({ id: 1, ok: true, result: 'a.txt: lines 1–1 of 1\n1\thello' });
    expect(executed.contextText).toBe(executed.result);
    const [record] = await logged();
    expect(record).toMatchObject({ id: 1, runId: 'run-1', phase: 'research', tool: 'read_file', args: { path: 'a.txt' }, ok: true, result: executed.result });
    expect(record.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('hides known secrets in the result and the arguments before they are logged or reach the model', async () => {
    const mask = secretMask([{ name: 'API key', value: 'sk-abcdefgh12345' }]);
    const { call, logged } = await project(tempFolder, { 'sk-abcdefgh12345.txt': 'key=sk-abcdefgh12345\n' }, mask);

    const executed = await call('research', { name: 'read_file', arguments: '{"path":"sk-abcdefgh12345.txt"}' });

    expect(executed.result).toBe('[hidden: API key].txt: lines 1–1 of 1\n1\tkey=[hidden: API key]');
    expect(executed.contextText).toBe(executed.result);
    const [record] = await logged();
    expect(record).toMatchObject({ args: { path: '[hidden: API key].txt' }, result: executed.result });
  });

  it('hands on the preview of a table tool with the secrets in its cells hidden, as in the text', async () => {
    const mask = secretMask([{ name: 'API key', value: 'sk-abcdefgh12345' }]);
    const { call, logged } = await project(tempFolder, { 'keys.csv': 'service,key\nllm | chat,sk-abcdefgh12345\n' }, mask);

    const executed = await call('research', { name: 'table_read_rows', arguments: { path: 'keys.csv' } });

    expect(executed.result).toBe('keys.csv: rows 1–1 of 1\nservice (text) | key (text)\nllm \\| chat | [hidden: API key]');
    expect(executed.preview).toEqual({ columns: ['service (text)', 'key (text)'], rows: [['llm | chat', '[hidden: API key]']], more: 0 });
    const [record] = await logged();
    expect(record.result).toBe(executed.result);
    expect(record).not.toHaveProperty('preview');
  });

  it('gives no preview for a tool that shows no table, nor for a table tool that failed or was refused', async () => {
    const { call } = await project(tempFolder, { 'a.txt': 'hello\n', 'a.csv': 'x,y\n1,2\n' });
    expect(await call('research', { name: 'read_file', arguments: { path: 'a.txt' } })).not.toHaveProperty('preview');
    const failed = await call('research', { name: 'table_read_rows', arguments: { path: 'missing.csv' } });
    expect(failed.ok).toBe(false);
    expect(failed).not.toHaveProperty('preview');
    const refused = await call('summary', { name: 'table_read_rows', arguments: { path: 'a.csv' } });
    expect(refused.refused).toBe('phase');
    expect(refused).not.toHaveProperty('preview');
  });

  it('refuses a change whose arguments carry a hidden-secret placeholder, so the real value is never overwritten with it', async () => {
    const { root, call } = await project(tempFolder, { '.env.local': 'KEY=sk-real\n' });

    const executed = await call('implement', { name: 'write_file', arguments: { path: '.env.local', content: 'KEY=[hidden: OPENAI_API_KEY]\n' } });

    expect(executed).toMatchObject({ ok: false, refused: 'arguments' });
    expect(executed.result).toContain('stands for a secret the workbench kept from you');
    expect(await readFile(path.join(root, '.env.local'), 'utf8')).toBe('KEY=sk-real\n');
  });

  it('refuses and logs, without running, a tool outside the phase, whatever the model sends', async () => {
    const { root, call, logged } = await project(tempFolder);
    const attempts: [Phase, string, unknown][] = [
      ['research', 'write_file', { path: 'x.txt', content: 'x' }],
      ['research', 'run_command', { command: 'touch ran.txt' }],
      ['plan', 'search_files', { pattern: 'x' }],
      ['plan', 'edit_file', { path: 'x.txt', old_text: 'a', new_text: 'b' }],
      ['summary', 'read_file', { path: 'x.txt' }],
      ['implement', 'shell', { command: 'touch ran.txt' }],
    ];

    const results = [];
    for (const [phase, name, args] of attempts) results.push(await call(phase, { name, arguments: JSON.stringify(args) }));

    expect(results.map((result) => [result.ok, result.refused])).toEqual(attempts.map(() => [false, 'phase']));
    expect(results[0]!.result).toBe(
      'Refused: write_file is not available in the research phase. Tools you can use now: list_files, read_file, recall_tool_result, get_file_info, get_file_map, search_files, ' +
        'table_get_map, table_describe, table_stats, table_read_rows, table_query, xlsx_get_styles, docx_get_styles, pptx_get_styles, ask_user.',
    );
    expect(results[4]!.result).toBe('Refused: read_file is not available in the summary phase. No tools can be used now.');
    expect(results[5]!.result).toMatch(/^Refused: there is no tool named "shell"\./);
    await expect(access(path.join(root, 'x.txt'))).rejects.toThrow();
    await expect(access(path.join(root, 'ran.txt'))).rejects.toThrow();
    expect((await logged()).map((record) => [record.phase, record.tool, record.ok])).toEqual(attempts.map(([phase, name]) => [phase, name, false]));
  });

  it('answers malformed arguments with a readable result instead of running the tool', async () => {
    const { call } = await project(tempFolder, { 'a.txt': 'a' });

    const notJson = await call('research', { name: 'read_file', arguments: '{"path": "a.txt"' });
    const notObject = await call('research', { name: 'read_file', arguments: '["a.txt"]' });
    const wrongType = await call('research', { name: 'read_file', arguments: '{"path": 7, "offset": 0}' });
    const missing = await call('research', { name: 'read_file', arguments: '{"file_path": "a.txt"}' });

    expect(notJson).toMatchObject({ ok: false, refused: 'arguments' });
    expect(notJson.result).toMatch(/^Invalid arguments for read_file: they are not valid JSON \(.+\)\. Send one JSON object/);
    expect(notObject.result).toBe('Invalid arguments for read_file: they must be a JSON object, e.g. {"path": "src/app.ts"}.');
    expect(wrongType.result).toMatch(/^Invalid arguments for read_file: path: .*expected string.*; offset: .*>=1/i);
    expect(missing.result).toMatch(/path: .*Parameters of read_file: path, offset, limit\.$/);
  });

  it('accepts arguments sent as an object, and empty arguments as {}', async () => {
    const { call } = await project(tempFolder, { 'a.txt': 'a' });
    expect((await call('research', { name: 'read_file', arguments: { path: 'a.txt' } })).ok).toBe(true);
    expect((await call('research', { name: 'list_files', arguments: '' })).ok).toBe(true);
  });

  it('turns tool errors and unexpected failures into results the model reads', async () => {
    const flaky = defineTool({
      name: 'read_file',
      description: 'test double with the name of a research tool',
      parameters: z.object({ mode: z.enum(['tool', 'crash']) }),
      mutates: false,
      async run({ mode }) {
        if (mode === 'tool') throw new ToolError('old_text matches 2 times.');
        throw Object.assign(new Error('disk on fire'), { code: 'EIO' });
      },
    });
    const { call } = await project(tempFolder);
    const catalog = new Map<string, Tool>([['read_file', flaky as Tool]]);

    expect(await call('research', { name: 'read_file', arguments: '{"mode":"tool"}' }, catalog)).toMatchObject({ ok: false, result: 'old_text matches 2 times.' });
    expect(await call('research', { name: 'read_file', arguments: '{"mode":"crash"}' }, catalog)).toMatchObject({ ok: false, result: 'read_file failed: EIO: disk on fire' });
  });

  it('truncates a long result in context with a note, and recall_tool_result pages through the full text', async () => {
    const lines = Array.from({ length: 4000 }, (_, i) => `row ${String(i + 1).padStart(4, '0')} ${'data '.repeat(4)}`);
    const { call } = await project(tempFolder, { 'big.csv': lines.join('\n') + '\n' });

    const read = await call('research', { name: 'read_file', arguments: '{"path":"big.csv","limit":4000}' });
    expect(read.result.length).toBeGreaterThan(contextResultChars * 2);
    expect(read.contextText.length).toBeLessThan(contextResultChars + 400);
    expect(read.contextText).toContain(`call recall_tool_result with id ${read.id} and offset ${contextResultChars} to read on`);

    let recalled = '';
    let offset = 0;
    for (let page = 0; page < 10 && offset < read.result.length; page += 1) {
      const next = await call('research', { name: 'recall_tool_result', arguments: JSON.stringify({ id: read.id, offset }) });
      expect(next.ok).toBe(true);
      const [header, ...body] = next.contextText.replace(/\n\[More follows: .*\]$/, '').split('\n');
      expect(header).toMatch(new RegExp(`^Result ${read.id} \\(read_file, succeeded\\), characters ${offset}–\\d+ of ${read.result.length}:$`));
      recalled += body.join('\n');
      offset = Number(/characters \d+–(\d+)/.exec(header!)![1]);
    }
    expect(recalled).toBe(read.result);
    expect((await call('research', { name: 'recall_tool_result', arguments: '{"id": 999}' })).result).toBe("There is no tool result with id 999 in this project's tool log.");
  });

  it('keeps tool-log ids increasing across a reopened log', async () => {
    const first = await project(tempFolder, { 'a.txt': 'a' });
    await first.call('research', { name: 'read_file', arguments: '{"path":"a.txt"}' });
    await first.call('research', { name: 'read_file', arguments: '{"path":"a.txt"}' });
    const reopened = await openToolLog(path.join(first.root, '.workbench'));
    const context = await toolContextFor(first.root);
    const third = await executeToolCall({ name: 'list_files', arguments: '{}' }, { phase: 'plan', runId: 'run-2', context, log: reopened });
    expect(third.id).toBe(3);
  });
});

describe('the tool catalog', () => {
  it('has every tool of DESIGN §5, each with a description and an object JSON Schema', () => {
    const definitions = toolDefinitions([...toolCatalog.values()]);
    expect(definitions.map((definition) => definition.function.name).sort()).toEqual(
      ['ask_user', 'delete_file', 'docx_get_styles', 'edit_file', 'get_file_info', 'get_file_map', 'list_files', 'move_file', 'pptx_get_styles', 'read_file', 'recall_tool_result', 'run_command', 'search_files']
        .concat(['table_describe', 'table_get_map', 'table_query', 'table_read_rows', 'table_stats', 'write_file', 'write_xlsx', 'xlsx_get_styles']),
    );
    for (const { function: fn } of definitions) {
      expect(fn.description.length, fn.name).toBeGreaterThan(40);
      expect(fn.parameters).toMatchObject({ type: 'object' });
      expect(fn.parameters).not.toHaveProperty('$schema');
    }
    const read = definitions.find((definition) => definition.function.name === 'read_file')!.function.parameters;
    expect(read).toMatchObject({ required: ['path'], properties: { path: { type: 'string' }, offset: { type: 'integer', minimum: 1 } } });
  });

  it('gives Research and Plan no tool that writes or runs anything, Implement no question to the user, and Summary no tools', () => {
    const names = (phase: Phase) => toolsForPhase(phase).map((tool) => tool.name);
    expect(toolsForPhase('research').filter((tool) => tool.mutates)).toEqual([]);
    expect(toolsForPhase('plan').filter((tool) => tool.mutates)).toEqual([]);
    const tableReads = ['table_get_map', 'table_describe', 'table_stats', 'table_read_rows', 'table_query', 'xlsx_get_styles', 'docx_get_styles', 'pptx_get_styles'];
    expect(names('plan')).toEqual(['list_files', 'read_file', 'recall_tool_result', 'ask_user']);
    expect(names('research')).toEqual([...names('plan').slice(0, -1), 'get_file_info', 'get_file_map', 'search_files', ...tableReads, 'ask_user']);
    expect(names('implement').sort()).toEqual([...toolCatalog.keys()].filter((name) => name !== 'ask_user').sort());
    expect(names('summary')).toEqual([]);
    expect([...toolCatalog.values()].filter((tool) => tool.mutates).map((tool) => tool.name).sort()).toEqual(
      ['delete_file', 'edit_file', 'move_file', 'run_command', 'write_file', 'write_xlsx'],
    );
  });
});
