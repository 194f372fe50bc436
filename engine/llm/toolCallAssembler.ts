import type { LlmToolCall } from './llmTypes.js';

/**
 * One entry of `choices[0].delta.tool_calls` as servers really send it: OpenAI sends `index` on every
 * fragment and `id` and `name` on the first; local servers may leave out either, repeat an empty name,
 * or send `arguments` as a whole object.
 */
export interface ToolCallFragment {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
}

interface DraftCall {
  id: string | null;
  name: string;
  argumentText: string;
  argumentObject: object | null;
}

/**
 * Puts streamed tool-call fragments back together. A fragment belongs to:
 * - the call with the same `index`, when it has one (unless it carries a different `id` than that call
 *   already has: some servers send every call with index 0, told apart only by id);
 * - else the call with the same `id`, or a new call for an id not seen yet;
 * - else, with neither, the last call (or the first call, when there is none yet), unless it names a
 *   tool while the last call already has a name: then it starts the next call.
 *
 * An empty `name` never overwrites a name. String `arguments` are concatenated; an object is kept
 * whole. When one call gets both, non-empty text wins over the object: servers that send an object send
 * the whole arguments at once, so an object next to streamed text is a placeholder (such as `{}`).
 * Calls without an id get `call_<n>` (n counts from 1 in order of appearance).
 */
export class ToolCallAssembler {
  private readonly drafts: DraftCall[] = [];
  private readonly byIndex = new Map<number, DraftCall>();
  private readonly byId = new Map<string, DraftCall>();

  add(fragment: ToolCallFragment): void {
    const draft = this.draftFor(fragment);
    const name = fragment.function?.name;
    if (typeof name === 'string' && name !== '') draft.name = name;
    const args = fragment.function?.arguments;
    if (typeof args === 'string') draft.argumentText += args;
    else if (typeof args === 'object' && args !== null) draft.argumentObject = args;
  }

  addAll(fragments: unknown): void {
    if (!Array.isArray(fragments)) return;
    for (const fragment of fragments) {
      if (typeof fragment === 'object' && fragment !== null) this.add(fragment as ToolCallFragment);
    }
  }

  calls(): LlmToolCall[] {
    return this.drafts.map((draft, position) => ({
      id: draft.id ?? `call_${position + 1}`,
      name: draft.name,
      arguments: draft.argumentText === '' && draft.argumentObject !== null ? draft.argumentObject : draft.argumentText,
    }));
  }

  private draftFor(fragment: ToolCallFragment): DraftCall {
    const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : null;
    const index = typeof fragment.index === 'number' ? fragment.index : null;
    if (index !== null) {
      const atIndex = this.byIndex.get(index);
      const isOtherCall = atIndex !== undefined && id !== null && atIndex.id !== null && atIndex.id !== id;
      if (atIndex !== undefined && !isOtherCall) {
        if (atIndex.id === null && id !== null) this.remember(atIndex, id);
        return atIndex;
      }
      return this.start(id, index);
    }
    if (id !== null) return this.byId.get(id) ?? this.start(id, null);
    const last = this.drafts.at(-1);
    const name = fragment.function?.name;
    const namesNextCall = typeof name === 'string' && name !== '' && last !== undefined && last.name !== '';
    return last !== undefined && !namesNextCall ? last : this.start(null, null);
  }

  private start(id: string | null, index: number | null): DraftCall {
    const draft: DraftCall = { id: null, name: '', argumentText: '', argumentObject: null };
    this.drafts.push(draft);
    if (index !== null) this.byIndex.set(index, draft);
    if (id !== null) this.remember(draft, id);
    return draft;
  }

  private remember(draft: DraftCall, id: string): void {
    draft.id = id;
    this.byId.set(id, draft);
  }
}
