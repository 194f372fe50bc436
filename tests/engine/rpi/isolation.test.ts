import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { phaseTools } from '../../../engine/tools/phaseTools.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, phaseOfRequest, planText, recordEvents, requestText, say, toolNames } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { startRun } from '../../support/startRun.js';

describe('each phase and each item starts from a fresh context with its own tools', () => {
  const tempFolder = useTempFolders('rpi-isolation-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('carries none of an earlier phase’s or item’s messages into the next one', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      'src/research-only.txt': 'MARKER_SEEN_IN_RESEARCH\n',
      'docs/plan-only.txt': 'MARKER_SEEN_IN_PLAN\n',
      'notes/item-one.txt': 'MARKER_SEEN_IN_ITEM_ONE\n',
    });
    llm().enqueue(
      call('read_file', { path: 'src/research-only.txt' }),
      say('Findings: the project has three text files.'),
      call('read_file', { path: 'docs/plan-only.txt' }),
      say(planText('Alpha', 'Beta')),
      call('read_file', { path: 'notes/item-one.txt' }),
      say('Alpha done.'),
      say('Beta done.'),
      say('Summary.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    expect((await (await startRun(workbench, 'Look around')).finished).status).toBe('done');

    const requests = llm().chatRequests();
    expect(requests.map(phaseOfRequest)).toEqual(['research', 'research', 'plan', 'plan', 'implement', 'implement', 'implement', 'summary']);
    const [, research2, plan1, plan2, alpha1, alpha2, beta1, summary] = requests;
    // Each loop sees its own tool results…
    expect(requestText(research2!)).toContain('MARKER_SEEN_IN_RESEARCH');
    expect(requestText(plan2!)).toContain('MARKER_SEEN_IN_PLAN');
    expect(requestText(alpha2!)).toContain('MARKER_SEEN_IN_ITEM_ONE');
    // …and every fresh context starts with a system prompt and one user message, none of them.
    for (const first of [plan1!, alpha1!, beta1!, summary!]) {
      expect(first.messages.map((message) => message.role)).toEqual(['system', 'user']);
      for (const marker of ['MARKER_SEEN_IN_RESEARCH', 'MARKER_SEEN_IN_PLAN', 'MARKER_SEEN_IN_ITEM_ONE']) {
        expect(requestText(first)).not.toContain(marker);
      }
    }
    // Plan builds on the research text itself; implement works from the plan alone.
    expect(requestText(plan1!)).toContain('Findings: the project has three text files.');
    expect(requestText(beta1!)).not.toContain('Findings: the project has three text files.');
    // The plan as approved, its outcomes told apart (the same bytes for every item: providers cache prompts by prefix).
    expect(requestText(beta1!)).toContain('- [ ] 1. Alpha');
    expect(requestText(beta1!)).not.toContain('- [x] 1. Alpha');
    expect(requestText(beta1!)).toContain('Done (1): 1. Alpha');
  });

  it('offers each phase only its tools, refuses a write in research, and writes nothing', async () => {
    const root = await tempFolder();
    llm().enqueue(
      call('write_file', { path: 'planted.txt', content: 'should never exist' }),
      call('run_command', { command: 'touch ran.txt' }),
      say('research done'),
      call('edit_file', { path: 'x', old_text: 'a', new_text: 'b' }),
      say('# Execution Plan\n\n## Items\n'),
      say('Nothing to do.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    expect((await (await startRun(workbench, 'Try to write early')).finished).status).toBe('done');

    const requests = llm().chatRequests();
    const byPhase = (phase: string) => requests.filter((request) => phaseOfRequest(request) === phase);
    // A folder without tables or office files: the table tools are not offered (toolOffer.test.ts).
    for (const request of byPhase('research')) expect(toolNames(request)).toEqual(phaseTools.research.filter((name) => !/^(table_|xlsx_|docx_|pptx_)/.test(name)));
    for (const request of byPhase('plan')) expect(toolNames(request)).toEqual(phaseTools.plan);
    expect(byPhase('summary')[0]!.tools).toBeUndefined();

    const refusals = events.filter((event) => event.type === 'tool-finished');
    expect(refusals).toHaveLength(3);
    expect(refusals.every((event) => event.type === 'tool-finished' && !event.ok && event.summary.startsWith('Refused:'))).toBe(true);
    expect(requestText(byPhase('research')[1]!)).toContain('write_file is not available in the research phase');
    expect(requestText(byPhase('plan')[1]!)).toContain('edit_file is not available in the plan phase');
    await expect(access(path.join(root, 'planted.txt'))).rejects.toThrow();
    await expect(access(path.join(root, 'ran.txt'))).rejects.toThrow();
  });
});
