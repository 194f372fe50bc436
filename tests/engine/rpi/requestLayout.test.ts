import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../../engine/contract/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, firstUserText, phaseOfRequest, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { writeManyFiles, filePath } from '../../support/readManyFiles.js';

/** The longest start two texts share. */
function sharedStart(a: string, b: string): string {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length += 1;
  return a.slice(0, length);
}

/** The sections (`## Title` and their text) two contexts start with alike: what comes before the first section that differs. */
function sharedSections(a: string, b: string): string {
  const shared = sharedStart(a, b);
  return shared.slice(0, shared.lastIndexOf('\n\n## '));
}

/** A request as a server reads it, in the order OpenAI renders one: the tools, then each message. */
function renderedRequest(request: ChatCompletionCreateParams): string {
  return JSON.stringify(request.tools ?? []) + request.messages.map((message) => JSON.stringify(message)).join('');
}

/** The first request of each Implement item (and retry): a fresh context of a system prompt and one user message. */
const itemStarts = (requests: readonly ChatCompletionCreateParams[]) => requests.filter((request) => phaseOfRequest(request) === 'implement' && request.messages.length === 2);

describe('requests built for the prompt cache: a stable prefix, then what changes', () => {
  const tempFolder = useTempFolders('rpi-layout-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('gives consecutive Implement items the same bytes up to the end of the stable part; the item, the progress and the files changed come after it', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      'AGENTS.md': 'Use tabs. MARKER-INSTRUCTIONS\n',
      'README.md': '# demo\n',
      'src/a.ts': 'export const a = 1;\n',
      'notes.txt': 'first version MARKER-ATTACHED-1\n',
    });
    llm().enqueue(
      say('Findings.'),
      say(planText('Alpha', 'Beta', 'Gamma')),
      call('write_file', { path: 'src/added.ts', content: 'export const added = 1;\n' }),
      call('write_file', { path: 'notes.txt', content: 'second version\n' }),
      say('Alpha done.'),
      say('Beta done.'),
      say('Gamma done.'),
      say('Summary.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const started = await startRun(workbench, 'Tidy up the demo', { context: [{ kind: 'file', path: 'notes.txt' }] });
    expect((await started.finished).status).toBe('done');

    const [alpha, beta, gamma] = itemStarts(llm().chatRequests());
    expect(beta!.messages[0]).toEqual(alpha!.messages[0]);
    expect(JSON.stringify(beta!.tools)).toBe(JSON.stringify(alpha!.tools));
    const stable = sharedSections(firstUserText(alpha!), firstUserText(beta!));
    expect(firstUserText(gamma!).startsWith(stable)).toBe(true);
    // What stays put for the phase is in the shared part: the request, the instructions, the attachment and
    // the plan as it was when Implement started (no outcome marks), and the file map from then.
    for (const part of ['Tidy up the demo', 'MARKER-INSTRUCTIONS', 'MARKER-ATTACHED-1', '- [ ] 1. Alpha — do alpha', '- [ ] 3. Gamma — do gamma', 'README.md']) {
      expect(stable).toContain(part);
    }
    expect(stable).not.toContain('added.ts');
    expect(stable).not.toContain('Current item');
    // What changes comes after it: the current item, the progress, the files changed since the phase began.
    const tail = firstUserText(beta!).slice(stable.length);
    for (const part of ['Current item (step 2 of 3)', 'Beta — do beta', 'Done (1): 1. Alpha', 'src/added.ts', 'notes.txt']) {
      expect(tail).toContain(part);
    }
    expect(firstUserText(beta!)).not.toContain('- [x] 1. Alpha');
    // Bytes as a server reads them: everything up to the end of the stable part is the same.
    const shared = sharedStart(renderedRequest(alpha!), renderedRequest(beta!)).length;
    expect(shared).toBeGreaterThan(renderedRequest(beta!).indexOf(JSON.stringify(stable).slice(1, -1)) + stable.length);
  });

  it('keeps the plan as approved when items are added while implementing: the new ones come after the prefix', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    llm().enqueue(
      say('Findings.'),
      say(planText('Alpha', 'Beta')),
      say('Alpha done.\n- [ ] 3. Extra — also do MARKER-EXTRA'),
      say('Beta done.'),
      say('Extra done.'),
      say('Summary.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    expect((await (await startRun(workbench, 'Tidy up')).finished).status).toBe('done');

    const [alpha, beta, extra] = itemStarts(llm().chatRequests()).map(firstUserText);
    const stable = sharedSections(alpha!, beta!);
    expect(extra!.startsWith(stable)).toBe(true);
    expect(stable).not.toContain('MARKER-EXTRA');
    expect(beta!.slice(stable.length)).toContain('3. Extra — also do MARKER-EXTRA');
    expect(extra!.slice(stable.length)).toContain('Current item (step 3 of 3)');
  });

  it('starts every request of a loop with the loop’s earlier request, in Research, Plan and each item', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
    llm().enqueue(
      call('read_file', { path: 'README.md' }),
      say('Findings.'),
      call('list_files', { path: '.' }),
      call('read_file', { path: 'src/a.ts' }),
      say(planText('Alpha')),
      call('read_file', { path: 'src/a.ts' }),
      call('edit_file', { path: 'src/a.ts', old_text: '= 1', new_text: '= 2' }),
      say('Alpha done.'),
      say('Summary.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    expect((await (await startRun(workbench, 'Tidy up')).finished).status).toBe('done');

    const requests = llm().chatRequests();
    expect(requests.map(phaseOfRequest)).toEqual(['research', 'research', 'plan', 'plan', 'plan', 'implement', 'implement', 'implement', 'summary']);
    for (const [index, request] of requests.entries()) {
      const before = requests[index - 1];
      if (!before || request.messages.length <= 2) continue;
      expect(renderedRequest(request).startsWith(renderedRequest(before).slice(0, -1))).toBe(true);
      expect(request.messages.slice(0, before.messages.length)).toEqual(before.messages);
    }
  });

  it('keeps the prefix when the budget trims: results are set aside after it, and a stub once written stays as it is', async () => {
    const root = await tempFolder();
    await writeManyFiles(root, 8_000);
    const reads = Array.from({ length: 8 }, (_, index) => call('read_file', { path: filePath(index) }));
    llm().enqueue(say('Findings.'), say(planText('Read')), ...reads, say('Read done.'), say('Summary.'));
    const options = fakeModelOptions(llm());
    const workbench = await open(root, { ...options, llmSettings: async () => ({ ...(await options.llmSettings!()), contextWindow: 16_384 }) });
    const events = recordEvents(workbench);
    expect((await (await startRun(workbench, 'Read the modules')).finished).status).toBe('done');

    const trims = events.filter((event): event is EventOf<'context-trimmed'> => event.type === 'context-trimmed' && event.phase === 'implement');
    expect(trims.some((event) => event.setAside > 0)).toBe(true);
    const item = llm().chatRequests().filter((request) => phaseOfRequest(request) === 'implement');
    const prefix = renderedRequest({ ...item[0]!, messages: item[0]!.messages.slice(0, 2) }).slice(0, -1);
    let stubs = new Map<number, unknown>();
    for (const request of item) {
      expect(renderedRequest(request).startsWith(prefix)).toBe(true);
      const now = new Map(request.messages.flatMap((message, index) => (JSON.stringify(message).includes('[Set aside to save room') ? [[index, message] as const] : [])));
      for (const [index, stub] of stubs) expect(now.get(index)).toEqual(stub);
      stubs = now;
    }
    expect(stubs.size).toBeGreaterThan(0);
  });
});
