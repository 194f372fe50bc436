import { describe, expect, it } from 'vitest';
import { toolDefinitions, toolsForPhase } from '../../../engine/tools/toolCatalog.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, phaseOfRequest, planText, say, toolNames } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const tableReads = ['table_get_map', 'table_describe', 'table_stats', 'table_read_rows', 'table_query', 'xlsx_get_styles', 'docx_get_styles', 'pptx_get_styles'];

describe('the tools a phase offers', () => {
  const tempFolder = useTempFolders('rpi-tool-offer-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it("open each request with the phase before's definitions, byte for byte: Plan's, then Research's", () => {
    // The question (Research and Plan only) comes last, so what precedes it is shared.
    const json = (phase: 'plan' | 'research' | 'implement') =>
      JSON.stringify(toolDefinitions(toolsForPhase(phase).filter((tool) => tool.name !== 'ask_user'))).slice(0, -1);
    expect(json('research').startsWith(json('plan'))).toBe(true);
    expect(json('implement').startsWith(json('research'))).toBe(true);
    for (const phase of ['plan', 'research'] as const) expect(toolsForPhase(phase).at(-1)?.name).toBe('ask_user');
    expect(toolsForPhase('implement').length).toBeGreaterThan(toolsForPhase('research').length);
  });

  /** One request, a one-item plan; the tool names each phase's requests were offered. */
  async function offered(files: Record<string, string>, request: string): Promise<Record<string, string[]>> {
    const root = await tempFolder();
    await writeTree(root, files);
    llm().enqueue(say('Findings.'), say(planText('Report')), call('write_file', { path: 'out.txt', content: 'x\n' }), say('Done.'), say('Summary.'));
    const earlier = llm().chatRequests().length;
    const workbench = await open(root, fakeModelOptions(llm()));
    expect((await (await startRun(workbench, request)).finished).status).toBe('done');
    const byPhase: Record<string, string[]> = {};
    for (const body of llm().chatRequests().slice(earlier)) byPhase[phaseOfRequest(body)!] ??= toolNames(body);
    return byPhase;
  }

  it('leave out the table and office tools in a folder that holds no table or document', async () => {
    const byPhase = await offered({ 'src/app.ts': 'export const a = 1;\n' }, 'Rename a to b');
    expect(byPhase.research).toEqual(['list_files', 'read_file', 'recall_tool_result', 'get_file_info', 'get_file_map', 'search_files', 'ask_user']);
    expect(byPhase.implement).toEqual([...byPhase.research!.slice(0, -1), 'write_file', 'edit_file', 'delete_file', 'move_file', 'run_command']);
  });

  it('offer them where the folder holds a table, however deep', async () => {
    const byPhase = await offered({ 'src/app.ts': 'x\n', 'data/2026/bank.csv': 'date,amount\n2026-01-02,-1\n' }, 'Sum the amounts');
    expect(byPhase.research).toEqual(expect.arrayContaining(tableReads));
    expect(byPhase.implement).toEqual(toolsForPhase('implement').map((tool) => tool.name));
  });

  it('offer them for a Word document, but not a table ignored by .gitignore', async () => {
    expect((await offered({ 'letters/template.docx': 'PK', '.gitignore': 'exports/\n', 'exports/old.csv': 'a\n1\n' }, 'Draft a letter')).research).toContain('docx_get_styles');
    expect((await offered({ '.gitignore': 'exports/\n', 'exports/old.csv': 'a\n1\n' }, 'Tidy up')).research).not.toContain('table_query');
  });

  it('offer write_xlsx, without the table readers, where the request asks for a spreadsheet in a folder without one', async () => {
    const byPhase = await offered({ 'src/app.ts': 'x\n' }, 'Export the price list as an Excel workbook');
    expect(byPhase.implement).toContain('write_xlsx');
    expect(byPhase.implement).not.toContain('table_query');
  });
});
