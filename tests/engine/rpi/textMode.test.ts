import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, phaseOfRequest, planText, recordEvents, requestText, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

/** A reply in the text tool protocol: some reasoning, then one fenced action block. */
const act = (tool: string, args: Record<string, unknown>, reasoning = 'Next step.') =>
  say(`${reasoning}\n\n\`\`\`action\n${JSON.stringify({ tool, arguments: args })}\n\`\`\``);

const systemText = (request: { messages: { role: string; content?: unknown }[] }) => String(request.messages[0]?.content ?? '');

describe('models without native tool calling', () => {
  const tempFolder = useTempFolders('rpi-text-mode-');
  const llm = useFakeLlm();
  const startLlm = useFakeLlmStarter();
  const open = useOpenedWorkbenches();

  it('runs the whole cycle through fenced action blocks, correcting a malformed one', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'src/index.ts': 'export const version = 1;\n' });
    llm().enqueue(
      act('read_file', { path: 'src/index.ts' }, 'I will read the entry point.'),
      say('Findings: src/index.ts exports version.'),
      act('list_files', { path: '.' }),
      say(planText('Greeting')),
      say('```action\n{"tool": "write_file", "arguments": {"path": "src/greeting.ts", \n```'),
      act('write_file', { path: 'src/greeting.ts', content: 'export const hi = 1;\n' }),
      say('Created src/greeting.ts.'),
      say('Added src/greeting.ts.'),
    );
    const workbench = await open(root, fakeModelOptions(llm(), { toolMode: 'text' }));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Add a greeting')).finished;

    expect(result).toMatchObject({ status: 'done', summary: 'Added src/greeting.ts.' });
    expect(await readFile(path.join(root, 'src/greeting.ts'), 'utf8')).toBe('export const hi = 1;\n');
    const requests = llm().chatRequests();
    expect(requests.every((request) => request.tools === undefined)).toBe(true);
    for (const request of requests.filter((request) => phaseOfRequest(request) !== 'summary')) {
      expect(systemText(request)).toContain('```action');
    }
    expect(systemText(requests.find((request) => phaseOfRequest(request) === 'research')!)).toContain('## search_files');
    expect(systemText(requests.find((request) => phaseOfRequest(request) === 'research')!)).not.toContain('## write_file');
    expect(systemText(requests.at(-1)!)).not.toContain('```action');
    expect(requestText(requests[1]!)).toContain('export const version = 1;');
    const implement = requests.filter((request) => phaseOfRequest(request) === 'implement');
    expect(requestText(implement[1]!)).toContain('could not be acted on');
    expect(events.filter((event) => event.type === 'tool-finished').map((event) => event.type === 'tool-finished' && event.ok)).toEqual([true, true, true]);
    expect(await readFile(path.join(conversationDir(root), 'rpi', 'plan.md'), 'utf8')).toContain('- [x] 1. Greeting');
  });

  it('auto mode falls back to the text protocol when the server refuses tools', async () => {
    const root = await tempFolder();
    const fake = await startLlm({
      toolsUnsupported: true,
      script: [act('list_files', { path: '.' }), say('research'), say(planText('One')), say('done'), say('Summary.')],
    });
    const workbench = await open(root, fakeModelOptions(fake, { toolMode: 'auto' }));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Go')).finished;

    expect(result.status).toBe('done');
    const chat = fake.chatRequests();
    expect(chat[0]!.tools?.length).toBeGreaterThan(0);
    expect(chat.slice(1).every((request) => request.tools === undefined)).toBe(true);
    expect(events.find((event) => event.type === 'warning')).toMatchObject({ message: expect.stringMatching(/does not support tools[\s\S]*text tool protocol/) });
    expect(events.filter((event) => event.type === 'tool-finished')).toHaveLength(1);
  });

  it('auto mode acts on an action block a model writes instead of a native call, then stays in text mode', async () => {
    const root = await tempFolder();
    llm().enqueue(act('list_files', { path: '.' }), say('research'), say(planText('One')), say('done'), say('Summary.'));
    const workbench = await open(root, fakeModelOptions(llm(), { toolMode: 'auto' }));

    expect((await (await startRun(workbench, 'Go')).finished).status).toBe('done');

    const chat = llm().chatRequests();
    expect(chat[0]!.tools?.length).toBeGreaterThan(0);
    expect(chat.slice(1).every((request) => request.tools === undefined)).toBe(true);
    expect(requestText(chat[1]!)).toContain('Result of your list_files action');
  });

  it('native mode never acts on text that looks like an action block', async () => {
    const root = await tempFolder();
    llm().enqueue(act('write_file', { path: 'x.txt', content: 'no' }), say(planText('One')), call('list_files', {}), say('done'), say('Summary.'));
    const workbench = await open(root, fakeModelOptions(llm(), { toolMode: 'native' }));

    expect((await (await startRun(workbench, 'Go')).finished).status).toBe('done');

    expect(await readFile(path.join(conversationDir(root), 'rpi', 'research.md'), 'utf8')).toContain('```action');
    expect(llm().chatRequests().every((request) => phaseOfRequest(request) === 'summary' || (request.tools?.length ?? 0) > 0)).toBe(true);
  });
});
