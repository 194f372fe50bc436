import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { contextItemLimits } from '../../engine/contract/contextItemLimits.js';
import type { ContextItem } from '../../engine/contract/index.js';
import { attachablePaths, type AttachablePaths, type PathLookup } from '../../engine/index.js';
import { visibleLine } from '../terminal/visibleText.js';
import { CliError } from './cliError.js';

/** `@` followed by a path-like word, at the start of the request or after white space (so `me@example.com` is not one). */
const atWord = /(?:^|\s)@([^\s@][^\s]*)/g;
/** Punctuation that ends a sentence rather than a path: `see @src/app.ts.` names src/app.ts. */
const trailingPunctuation = /[.,;:!?)\]}'"`]+$/;

/**
 * The items a request from the command line attaches: each `--context <path>` (relative to the project
 * folder, or absolute inside it; a file or a folder), then each `@path` word of the request that names an
 * existing file or folder in the folder, in order, without repeats. A `--context` path that does not exist,
 * leaves the folder, or is .git/ or .workbench/ is a usage error naming it. An `@word` that names nothing
 * in the folder (an npm scope such as `@types/node`, a handle, `@` in prose) is left as plain text; the
 * words stay in the request either way, so the model reads them where the user wrote them.
 */
export async function resolveContextItems(folder: string, paths: readonly string[], request: string): Promise<ContextItem[]> {
  const attachable = await attachablePaths(folder);
  const items: ContextItem[] = [];
  const add = (item: ContextItem) => {
    if (items.some((known) => sameItem(known, item))) return;
    if (items.length >= contextItemLimits.maxItems) {
      throw new CliError(`Too many context items: at most ${contextItemLimits.maxItems} can be attached to one request.`);
    }
    items.push(item);
  };
  for (const given of paths) {
    const lookup = await attachable.lookUp(await folderRelative(attachable.root, given));
    if (lookup.kind !== 'item') throw new CliError(refusal(given, lookup, attachable.root));
    add(lookup.item);
  }
  for (const word of atWords(request)) {
    const item = await itemNamedBy(attachable, word);
    if (item) add(item);
  }
  return items;
}

/** The path part of every `@word` in the request, in order. */
export function atWords(request: string): string[] {
  return [...request.matchAll(atWord)].map((match) => match[1] ?? '').filter((word) => word !== '');
}

/** The file or folder an `@word` names (trying it without sentence punctuation too), or null when it names none. */
async function itemNamedBy(attachable: AttachablePaths, word: string): Promise<ContextItem | null> {
  const candidates = [...new Set([word, word.replace(trailingPunctuation, '')])].filter((candidate) => candidate !== '');
  for (const candidate of candidates) {
    if (path.isAbsolute(candidate)) continue;
    const lookup = await attachable.lookUp(candidate);
    if (lookup.kind === 'item') return lookup.item;
  }
  return null;
}

/** A path given on the command line, relative to the folder: absolute paths inside it (through any link to it) are made relative. */
async function folderRelative(root: string, given: string): Promise<string> {
  if (!path.isAbsolute(given)) return given;
  const real = await realpath(given).catch(() => path.resolve(given));
  const relative = path.relative(root, real);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

function refusal(given: string, lookup: Exclude<PathLookup, { kind: 'item' }>, root: string): string {
  const shown = visibleLine(given);
  if (lookup.kind === 'missing') return `--context ${shown}: there is no such file or folder in ${visibleLine(root)} (paths are relative to the project folder).`;
  return `--context ${shown} cannot be attached: ${lookup.reason}.`;
}

function sameItem(a: ContextItem, b: ContextItem): boolean {
  if (a.kind === 'note' || b.kind === 'note') return a.kind === b.kind && a.kind === 'note' && b.kind === 'note' && a.text === b.text;
  return a.kind === b.kind && a.path === b.path;
}
