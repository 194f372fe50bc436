import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalSettings, EventOf, ParsedPayload, WorkbenchEvent } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';
import { AllowedMcpTools } from '../../../engine/mcp/allowedMcpTools.js';
import { McpConfigStore } from '../../../engine/mcp/mcpConfigStore.js';
import { noKeyStorage } from '../../../engine/settings/keyCipher.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { everythingScript, filesystemScript, stdioServer, writeMcpConfig } from '../../support/mcpServers.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, phaseOfRequest, planText, recordEvents, requestText, say, toolNames } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { startRun } from '../../support/startRun.js';

const askAll: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };
const autoAll: ApprovalSettings = { files: 'auto', commands: 'auto', timeoutSeconds: 600, reviewPlan: false };

interface LoggedCall {
  id: number;
  phase: string;
  tool: string;
  args: Record<string, unknown>;
  result: string;
  ok: boolean;
}

async function toolLog(root: string): Promise<LoggedCall[]> {
  const text = await readFile(path.join(root, '.workbench', 'tool-log.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoggedCall);
}

/** Answers each approval request as `answer` says, as a person at the UI would. */
function answerApprovals(workbench: Workbench, answer: (request: EventOf<'approval-requested'>) => Omit<ParsedPayload<'session:approve'>, 'requestId'>): EventOf<'approval-requested'>[] {
  const seen: EventOf<'approval-requested'>[] = [];
  workbench.subscribe((event) => {
    if (event.type !== 'approval-requested') return;
    seen.push(event);
    void workbench.request('session:approve', { requestId: event.requestId, ...answer(event) });
  });
  return seen;
}

describe('MCP tools in a run', () => {
  const tempFolder = useTempFolders('rpi-mcp-run-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function setUp(servers: Record<string, unknown>, approvals: ApprovalSettings = askAll) {
    const root = await tempFolder();
    const configDir = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    await writeMcpConfig(configDir, servers);
    const store = new McpConfigStore({ configDir, cipher: noKeyStorage('none') });
    const workbench = await open(root, {
      ...fakeModelOptions(llm()),
      approvals: async () => approvals,
      mcp: { specs: () => store.specs(), allowances: new AllowedMcpTools(configDir) },
    });
    const events: WorkbenchEvent[] = recordEvents(workbench);
    return { root, configDir, workbench, events };
  }

  it('offers an Implement item the tools as mcp__<server>__<tool> with their schemas, asks before a call, and logs call and result', async () => {
    const { root, workbench, events } = await setUp({ everything: stdioServer(everythingScript, ['stdio']) }, autoAll);
    const requests = answerApprovals(workbench, () => ({ decision: 'approve' }));
    llm().enqueue(say('A README.'), say(planText('Add up')), call('mcp__everything__get-sum', { a: 20, b: 22 }), say('The sum is 42.'), say('Asked the MCP server: 20 + 22 = 42.'));

    const result = await (await startRun(workbench, 'Add 20 and 22 with the MCP server')).finished;

    expect(result.status).toBe('done');
    const chats = llm().chatRequests();
    const implement = chats.find((request) => phaseOfRequest(request) === 'implement');
    expect(toolNames(implement)).toEqual(expect.arrayContaining(['write_file', 'mcp__everything__echo', 'mcp__everything__get-sum']));
    const sum = implement?.tools?.find((tool) => tool.type === 'function' && tool.function.name === 'mcp__everything__get-sum');
    expect(sum?.type === 'function' && sum.function.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      required: ['a', 'b'],
    });
    expect(sum?.type === 'function' && sum.function.description).toBe('Returns the sum of two numbers\n(Tool "get-sum" of the user\'s MCP server "everything".)');
    expect(toolNames(chats.find((request) => phaseOfRequest(request) === 'research')).filter((name) => name.startsWith('mcp__'))).toEqual([]);
    expect(toolNames(chats.find((request) => phaseOfRequest(request) === 'plan')).filter((name) => name.startsWith('mcp__'))).toEqual([]);
    // Even with every file and command policy on "auto", an MCP call asks.
    expect(requests).toEqual([
      expect.objectContaining({
        tool: 'mcp__everything__get-sum',
        args: { a: 20, b: 22 },
        canAlwaysAllow: true,
        reason: expect.stringMatching(/^"get-sum" is a tool of your MCP server "everything".*The server marks it read-only\.$/),
      }),
    ]);
    expect(events.find((event) => event.type === 'approval-resolved')).toMatchObject({ decision: 'approved' });
    expect(requestText(chats.at(-2)!)).toContain('The sum of 20 and 22 is 42.');
    expect((await toolLog(root)).find((entry) => entry.tool === 'mcp__everything__get-sum')).toMatchObject({ phase: 'implement', args: { a: 20, b: 22 }, result: 'The sum of 20 and 22 is 42.', ok: true });
    expect(events.find((event) => event.type === 'tool-finished' && event.ok)).toMatchObject({ summary: 'The sum of 20 and 22 is 42.' });
  });

  it("hides a server's secrets in every result the model reads, a file of the folder's too", async () => {
    const token = 'svc-0123456789abcdef';
    const { root, workbench } = await setUp({ everything: stdioServer(everythingScript, ['stdio'], { env: { SERVICE_TOKEN: token } }) }, autoAll);
    await writeFile(path.join(root, 'notes.txt'), `deploy with ${token}\n`);
    llm().enqueue(call('read_file', { path: 'notes.txt' }), say('Read the notes.'), say(planText('Nothing')), say('done'), say('Read them.'));
    expect((await (await startRun(workbench, 'Read the notes')).finished).status).toBe('done');
    const seen = JSON.stringify(llm().chatRequests().map((request) => request.messages));
    expect(seen).not.toContain(token);
    expect(seen).toContain('[hidden: everything SERVICE_TOKEN]');
  });

  it('sends a denial back to the model, never calling the server', async () => {
    const { root, workbench } = await setUp({ everything: stdioServer(everythingScript, ['stdio']) });
    answerApprovals(workbench, () => ({ decision: 'deny' }));
    llm().enqueue(say('A README.'), say(planText('Echo')), call('mcp__everything__echo', { message: 'hello' }), say('The call was denied.'), say('Nothing was echoed.'));

    await (await startRun(workbench, 'Echo hello')).finished;

    const logged = (await toolLog(root)).find((entry) => entry.tool === 'mcp__everything__echo');
    expect(logged).toMatchObject({ ok: false, result: expect.stringMatching(/^The user denied this call of mcp__everything__echo; it was not run\./) });
    expect(requestText(llm().chatRequests().at(-2)!)).toContain('The user denied this call of mcp__everything__echo');
    expect(requestText(llm().chatRequests().at(-2)!)).not.toContain('Echo: hello');
  });

  it('runs a tool the user chose to always allow without asking again, and keeps that choice in the config dir', async () => {
    const { workbench, configDir } = await setUp({ everything: stdioServer(everythingScript, ['stdio']) });
    const requests = answerApprovals(workbench, () => ({ decision: 'approve', alwaysAllow: true }));
    llm().enqueue(say('A README.'), say(planText('Echo twice')), call('mcp__everything__echo', { message: 'one' }), call('mcp__everything__echo', { message: 'two' }), say('Echoed twice.'), say('Echoed.'));

    await (await startRun(workbench, 'Echo twice')).finished;

    expect(requests).toHaveLength(1);
    expect(requestText(llm().chatRequests().at(-2)!)).toContain('Echo: two');
    const stored = JSON.parse(await readFile(path.join(configDir, 'mcp-allowed-tools.json'), 'utf8')) as Record<string, { tools: string[] }>;
    expect(stored['everything']?.tools).toEqual(['echo']);
    expect(workbench.mcp?.statuses()[0]?.tools.find((tool) => tool.name === 'echo')?.alwaysAllowed).toBe(true);
  });

  it('offers read-only tools in Research only when the server allows it, and refuses the others there', async () => {
    const { root, workbench } = await setUp({ everything: { ...stdioServer(everythingScript, ['stdio']), researchReadOnly: true } });
    answerApprovals(workbench, () => ({ decision: 'approve' }));
    llm().enqueue(
      call('mcp__everything__toggle-simulated-logging', {}),
      call('mcp__everything__echo', { message: 'from research' }),
      say('Research found the echo.'),
      say('# Execution Plan\n\n## Items\n'),
      say('Nothing to do.'),
    );

    await (await startRun(workbench, 'Look around')).finished;

    const research = llm().chatRequests().filter((request) => phaseOfRequest(request) === 'research');
    expect(toolNames(research[0])).toContain('mcp__everything__echo');
    expect(toolNames(research[0])).not.toContain('mcp__everything__toggle-simulated-logging');
    const logged = await toolLog(root);
    expect(logged[0]).toMatchObject({ phase: 'research', tool: 'mcp__everything__toggle-simulated-logging', ok: false, result: expect.stringContaining('is not among the MCP tools offered in the research phase') });
    expect(logged[1]).toMatchObject({ phase: 'research', tool: 'mcp__everything__echo', ok: true, result: 'Echo: from research' });
  });

  it('does not hold up a cancel while a server the phase waits for is still starting', async () => {
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], researchReadOnly: true };
    const { workbench } = await setUp({ silent });

    const started = await startRun(workbench, 'Look around');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const asked = performance.now();
    await workbench.request('session:cancel');
    const result = await started.finished;

    expect(result.status).toBe('cancelled');
    expect(performance.now() - asked).toBeLessThan(3000);
    expect(llm().chatRequests()).toEqual([]);
    expect(workbench.mcp?.statuses()[0]?.state).toBe('starting');
  });

  it('refuses arguments the server schema rejects before anything is asked or called', async () => {
    const { root, workbench } = await setUp({ everything: stdioServer(everythingScript, ['stdio']) });
    const requests = answerApprovals(workbench, () => ({ decision: 'approve' }));
    llm().enqueue(say('A README.'), say(planText('Add')), call('mcp__everything__get-sum', { a: 'one' }), say('Could not add.'), say('Nothing added.'));

    await (await startRun(workbench, 'Add')).finished;

    expect(requests).toEqual([]);
    expect((await toolLog(root)).find((entry) => entry.tool === 'mcp__everything__get-sum')).toMatchObject({
      ok: false,
      result: expect.stringMatching(/^Invalid arguments for mcp__everything__get-sum: .*arguments\/a must be number.*Parameters of mcp__everything__get-sum: a, b\.$/),
    });
  });

  it('cuts a large result in the model’s context with the recall note, and keeps it whole in the tool log', async () => {
    const { root, workbench } = await setUp({ everything: stdioServer(everythingScript, ['stdio']) });
    answerApprovals(workbench, () => ({ decision: 'approve' }));
    const long = 'x'.repeat(50_000);
    llm().enqueue(say('A README.'), say(planText('Echo')), call('mcp__everything__echo', { message: long }), say('Echoed a lot.'), say('Done.'));

    await (await startRun(workbench, 'Echo a lot')).finished;

    const entry = (await toolLog(root)).find((logged) => logged.tool === 'mcp__everything__echo');
    expect(entry?.result).toBe(`Echo: ${long}`);
    expect(requestText(llm().chatRequests().at(-2)!)).toContain(`call recall_tool_result with id ${entry?.id} and offset 20000 to read on`);
  });

  it('takes a checkpoint before a tool that may change the folder, so undo takes back what server-filesystem wrote', async () => {
    // "." is the folder: a stdio server runs in it.
    const { root, workbench } = await setUp({ files: stdioServer(filesystemScript, ['.']) });
    answerApprovals(workbench, () => ({ decision: 'approve' }));
    const notes = path.join(root, 'notes.md');
    llm().enqueue(say('A README.'), say(planText('Write')), call('mcp__files__write_file', { path: notes, content: '# notes\n' }), say('Wrote notes.md.'), say('Wrote notes.md.'));

    const started = await startRun(workbench, 'Write notes');
    await started.finished;

    expect((await toolLog(root)).find((entry) => entry.tool === 'mcp__files__write_file')).toMatchObject({ ok: true, result: `Successfully wrote to ${notes}` });
    expect(await readFile(notes, 'utf8')).toBe('# notes\n');
    expect((await workbench.request('session:undo', { messageId: started.messageId })).restoredFiles).toContain('notes.md');
    await expect(readFile(notes, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
