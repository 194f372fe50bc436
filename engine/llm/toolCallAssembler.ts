import type { LlmToolCall } from './llmTypes.js';

/**
 * One entry of `choices[0].delta.tool_calls` as servers really send it. OpenAI sends `index` on every
 * fragment and `id` and `name` on the first; others start indexes at 1 or 2, reuse index 0 for parallel
 * calls told apart by id, repeat the id on every fragment, send it empty or null on continuations or
 * change it within one call (lmdeploy, Poolside), put a call's head and its arguments on different
 * indexes (some gateways), repeat the name or send it empty or null, leave out `arguments` on the head,
 * send whole calls in one fragment, several in one array, or `arguments` as an object (Gemini, Ollama).
 * Gemini adds `extra_content` (the thought signature) that must go back with the call.
 */
export interface ToolCallFragment {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
  extra_content?: unknown;
}

interface DraftCall {
  id: string | null;
  name: string;
  argumentText: string;
  argumentObject: object | null;
  extraContent: unknown;
}

/**
 * Puts streamed tool-call fragments back together as a reasonable reader would:
 * - A fragment without a name continues a call: the one at its `index`, else the one with its `id`,
 *   else the call in progress (whatever id it carries: ids that change mid-call are not new calls).
 * - A fragment with a name (a head) starts a new call at an index or id not seen yet; where there is a
 *   call already (same index, same id, or neither given), it starts the next call only once that call
 *   is complete — its arguments parse, or it has none and the head carries another id — so a name
 *   repeated on every fragment still makes one call.
 *
 * An empty or null `name` never overwrites a name. String `arguments` are concatenated; an object is
 * kept whole. When one call gets both, non-empty text wins over the object: servers that send an object
 * send the whole arguments at once, so an object next to streamed text is a placeholder (such as `{}`).
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
    if (fragment.extra_content !== undefined && fragment.extra_content !== null) draft.extraContent = fragment.extra_content;
  }

  addAll(fragments: unknown): void {
    if (!Array.isArray(fragments)) return;
    for (const fragment of fragments) {
      if (typeof fragment === 'object' && fragment !== null) this.add(fragment as ToolCallFragment);
    }
  }

  /** The calls, in order; a draft that never got a name nor arguments (a stray fragment) is no call. */
  calls(): LlmToolCall[] {
    const real = this.drafts.filter((draft) => draft.name !== '' || draft.argumentText !== '' || draft.argumentObject !== null);
    return real.map((draft, position) => ({
      id: draft.id ?? `call_${position + 1}`,
      name: draft.name,
      arguments: draft.argumentText === '' && draft.argumentObject !== null ? draft.argumentObject : draft.argumentText,
      ...(draft.extraContent === undefined ? {} : { extraContent: draft.extraContent }),
    }));
  }

  private draftFor(fragment: ToolCallFragment): DraftCall {
    const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : null;
    const index = typeof fragment.index === 'number' ? fragment.index : null;
    const name = fragment.function?.name;
    const isHead = typeof name === 'string' && name !== '';
    const existing = (index === null ? undefined : this.byIndex.get(index)) ?? (id === null ? undefined : this.byId.get(id)) ?? (index === null && id === null ? this.drafts.at(-1) : undefined);
    if (!isHead) {
      const draft = existing ?? this.drafts.at(-1);
      if (draft === undefined) return this.start(id, index);
      if (draft.id === null && id !== null) this.remember(draft, id);
      if (index !== null && !this.byIndex.has(index)) this.byIndex.set(index, draft);
      return draft;
    }
    // A draft that has no name yet (a fragment carrying only Gemini's signature, or arguments sent before
    // the name) is the head's own call.
    const last = this.drafts.at(-1);
    const target = existing ?? (last !== undefined && last.name === '' ? last : undefined);
    if (target === undefined || this.startsNextCall(target, fragment)) return this.start(id, index);
    if (target.id === null && id !== null) this.remember(target, id);
    if (index !== null && !this.byIndex.has(index)) this.byIndex.set(index, target);
    return target;
  }

  /**
   * Whether a head meeting `draft` (same index, same id, or neither given) begins another call: never
   * for the same id, nor for the same name repeated with no arguments of its own; otherwise once the
   * draft is complete (its arguments parse), or when it has none and the head carries another id.
   */
  private startsNextCall(draft: DraftCall, fragment: ToolCallFragment): boolean {
    const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : null;
    if (draft.name === '' || (id !== null && id === draft.id)) return false;
    const args = fragment.function?.arguments;
    const repeatsName = fragment.function?.name === draft.name && (args === undefined || args === null || args === '') && (id === null || draft.id === null);
    if (repeatsName) return false;
    if (draft.argumentObject !== null || parses(draft.argumentText)) return true;
    return draft.argumentText === '' && id !== null && draft.id !== null && id !== draft.id;
  }

  private start(id: string | null, index: number | null): DraftCall {
    const draft: DraftCall = { id: null, name: '', argumentText: '', argumentObject: null, extraContent: undefined };
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

function parses(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
