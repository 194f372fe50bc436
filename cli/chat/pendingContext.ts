import type { ContextItem } from '../../engine/contract/index.js';
import { CliError } from '../commands/cliError.js';
import { resolveContextItems } from '../commands/contextOption.js';
import { firstLine } from '../terminal/historyFormat.js';
import { visibleLine } from '../terminal/visibleText.js';

/**
 * What `/context <path>` attached, waiting for the next request: checked when attached (a bad path is
 * refused then, with its reason), sent with the next request together with the `@path` words of its
 * text, then cleared. A request the engine refuses keeps them for the one after.
 */
export class PendingContext {
  private items: ContextItem[] = [];

  constructor(private readonly folder: string) {}

  get count(): number {
    return this.items.length;
  }

  /** Attaches a file or folder; resolves with the line that says so. */
  async add(itemPath: string): Promise<string> {
    const added = await resolveContextItems(this.folder, [itemPath], '').catch((error: unknown) => {
      // Its reasons are worded for the command line's --context; here the user typed /context.
      if (error instanceof CliError) throw new CliError(error.message.replace(/^--context /, '/context '));
      throw error;
    });
    const fresh = added.filter((item) => !this.items.some((kept) => sameItem(kept, item)));
    this.items.push(...fresh);
    const what = added.map(describeItem).join(', ');
    return fresh.length === 0 ? `Already attached: ${what}.` : `Attached ${what}: it goes with the next request (${this.count} in all).`;
  }

  describe(): string {
    if (this.items.length === 0) return 'Nothing is attached. /context <path> attaches a file or folder to the next request (so does @path in its text).';
    return ['Attached to the next request:', ...this.items.map((item) => `  ${describeItem(item)}`), '/context clear drops them.'].join('\n');
  }

  clear(): string {
    const count = this.items.length;
    this.items = [];
    return count === 0 ? 'Nothing was attached.' : `Dropped ${count === 1 ? 'the attached item' : `the ${count} attached items`}.`;
  }

  /** The items for a request: those attached, then the `@path` words of its text; the attached ones are cleared once these resolve. */
  async take(request: string): Promise<ContextItem[]> {
    const fromWords = await resolveContextItems(this.folder, [], request);
    const items = [...this.items];
    for (const item of fromWords) if (!items.some((kept) => sameItem(kept, item))) items.push(item);
    this.items = [];
    return items;
  }

  /** Puts the items back, for the next request, after the engine refused the one they were taken for. */
  restore(items: readonly ContextItem[]): void {
    this.items = [...items.filter((item) => !this.items.some((kept) => sameItem(kept, item))), ...this.items];
  }
}

function sameItem(a: ContextItem, b: ContextItem): boolean {
  return itemKey(a) === itemKey(b);
}

function itemKey(item: ContextItem): string {
  return item.kind === 'note' ? `note:${item.text}` : `${item.kind}:${item.path}`;
}

function describeItem(item: ContextItem): string {
  if (item.kind === 'note') return `note "${firstLine(item.text)}"`;
  return item.kind === 'folder' ? `folder ${visibleLine(item.path)}/` : `file ${visibleLine(item.path)}`;
}
