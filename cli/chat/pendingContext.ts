import { contextItemLimits } from '../../engine/contract/contextItemLimits.js';
import type { ContextItem } from '../../engine/contract/index.js';
import { CliError } from '../commands/cliError.js';
import { resolveContextItems } from '../commands/contextOption.js';
import { firstLine } from '../terminal/historyFormat.js';
import { visibleLine } from '../terminal/visibleText.js';

const maxItems = contextItemLimits.maxItems;

/**
 * What `/context <path>` attached, waiting for the next request: checked when attached (a bad path is
 * refused then, with its reason), sent with the next request together with the `@path` words of its
 * text, then cleared. A request the engine refuses keeps them for the one after. At most
 * contextItemLimits.maxItems go with one request, those attached and those named by `@path` together:
 * one more /context is refused, and so is a request whose `@path` words would take it over, before it is sent.
 */
export class PendingContext {
  private items: ContextItem[] = [];

  constructor(private readonly folder: string) {}

  get count(): number {
    return this.items.length;
  }

  /** Attaches a file or folder; resolves with the line that says so. Refused once as many are attached as one request may carry. */
  async add(itemPath: string): Promise<string> {
    const added = await resolveContextItems(this.folder, [itemPath], '').catch((error: unknown) => {
      // Its reasons are worded for the command line's --context; here the user typed /context.
      if (error instanceof CliError) throw new CliError(error.message.replace(/^--context /, '/context '));
      throw error;
    });
    const fresh = added.filter((item) => !this.items.some((kept) => sameItem(kept, item)));
    const what = added.map(describeItem).join(', ');
    if (this.items.length + fresh.length > maxItems) {
      throw new CliError(`/context ${visibleLine(itemPath)}: not attached, ${maxItems} items are already attached and that is as many as one request may carry. /context clear drops them.`);
    }
    this.items.push(...fresh);
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

  /**
   * The items for a request: those attached, then the `@path` words of its text. The attached ones are
   * cleared once these resolve; `putBack` returns them (and only them, not the `@path` ones) for the next
   * request, after the engine refused this one. Refused, with nothing cleared, when together they are more
   * than one request may carry.
   */
  async take(request: string): Promise<{ items: ContextItem[]; putBack: () => void }> {
    const fromWords = await resolveContextItems(this.folder, [], request);
    const attached = [...this.items];
    const items = [...attached];
    for (const item of fromWords) if (!items.some((kept) => sameItem(kept, item))) items.push(item);
    if (items.length > maxItems) {
      const words = items.length - attached.length;
      throw new CliError(
        `Nothing was sent: this request would carry ${items.length} items (${attached.length} attached with /context, ${words} named by its @words), and one request may carry at most ${maxItems}. Name fewer files with @, or drop attached ones with /context clear.`,
      );
    }
    this.items = [];
    return { items, putBack: () => this.restore(attached) };
  }

  /** Puts attached items back, before any attached since. */
  private restore(items: readonly ContextItem[]): void {
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
