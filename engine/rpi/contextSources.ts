import { contextItemsBudget, readContextItems } from '../context/contextItems.js';
import { readFolderInstructions, readProjectInstructions } from '../context/projectInstructions.js';
import type { ContextItem, Phase, UnsequencedEvent } from '../contract/index.js';
import { getFileMap } from '../tools/getFileMap.js';
import type { ToolOffer } from '../tools/phaseTools.js';
import { holdsTableFiles } from '../tools/tables/holdsTableFiles.js';
import { asksForWorkbook } from '../tools/toolOffer.js';
import type { ToolContext } from '../tools/tool.js';

export interface ContextSourcesDeps {
  runId: string;
  contextItems: readonly ContextItem[];
  toolContext: Omit<ToolContext, 'signal'>;
  emit: (event: UnsequencedEvent) => void;
  signal: AbortSignal;
}

/**
 * What a phase's fresh context is read from: the project's instructions, the items attached to the
 * request, the file map. The UI is told which instruction files a phase was given whenever that set
 * changes, and which items were attached once a run.
 */
export class ContextSources {
  /** The instruction files last told, one per line, so the same set is not told again. */
  private toldInstructions = '';
  private projectFiles: readonly string[] = [];
  private toldAttachments = false;
  private holdsTables: Promise<boolean> | null = null;

  constructor(private readonly deps: ContextSourcesDeps) {}

  /** The project's own instructions (AGENTS.md at the root), read afresh so an edit between runs counts. */
  async instructions(phase: Phase): Promise<string> {
    const { text, files } = await readProjectInstructions(this.deps.toolContext.workspace);
    this.projectFiles = files;
    this.tellInstructions(phase, files);
    return text;
  }

  /** The instructions of the folders above `paths`; told together with the project's last read. */
  async folderInstructions(phase: Phase, paths: readonly string[]): Promise<string> {
    const { text, files } = await readFolderInstructions(this.deps.toolContext.workspace, paths);
    this.tellInstructions(phase, [...this.projectFiles, ...files]);
    return text;
  }

  /** The attached items, as they are now, within their share of a request to a model with this window. */
  async attachments(phase: Phase, contextWindow: number): Promise<string> {
    const { contextItems: items, toolContext, signal, emit, runId } = this.deps;
    if (items.length === 0) return '';
    const { text, labels } = await readContextItems({ items, budgetChars: contextItemsBudget(contextWindow), toolContext, signal });
    if (!this.toldAttachments) {
      this.toldAttachments = true;
      emit({ type: 'context-items-read', runId, phase, items: labels });
    }
    return text;
  }

  /** The project's file map as the get_file_map tool shows it; the manifest each phase starts from. */
  async manifest(depth: number): Promise<string> {
    return (await getFileMap.run({ path: '.', depth }, { ...this.deps.toolContext, signal: this.deps.signal })).text;
  }

  /**
   * Which tools a phase offers, decided when it begins and kept for all its requests (they open every
   * request, so they must not change within a phase). See toolOfferFor. The folder is walked once a
   * run: Research and Plan write nothing, so it holds the same tables when Implement begins.
   */
  async toolOffer(texts: readonly string[]): Promise<ToolOffer> {
    const { workspace } = this.deps.toolContext;
    this.holdsTables ??= holdsTableFiles(workspace.root, { signal: this.deps.signal, onUnreachable: workspace.unreachable.report });
    return { tables: await this.holdsTables, workbooks: asksForWorkbook(texts) };
  }

  private tellInstructions(phase: Phase, files: readonly string[]): void {
    const told = files.join('\n');
    if (files.length === 0 || told === this.toldInstructions) return;
    this.toldInstructions = told;
    this.deps.emit({ type: 'instructions-read', runId: this.deps.runId, phase, files: [...files] });
  }
}
