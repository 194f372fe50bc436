import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FileDiff, FileSideView } from '../contract/changes.js';
import { forEachLimited } from '../checkpoints/forEachLimited.js';
import { diffOffThread, type DiffSideResult } from '../diff/diffThread.js';
import { assembleDiff, diffFiles, permissions } from '../diff/fileDiff.js';
import { maxComparedBytes } from '../diff/textContent.js';
import type { SideSource } from './sideSources.js';

/** A path whose content differs between the two ends of a range: where each side comes from (null: absent). */
export interface PathPair {
  path: string;
  before: SideSource | null;
  after: SideSource | null;
}

interface Computed {
  diff: FileDiff;
  beforeHash: string | null;
  afterHash: string | null;
}

/** Counts computed before, by path and the two sides' keys: a live list recomputes only what changed. */
export class ChangeCounts {
  private readonly entries = new Map<string, Computed>();

  constructor(private readonly limit = 20_000) {}

  get(key: string): Computed | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: Computed): void {
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
  }
}

const readsAtOnce = 32;
/** How long the counting may keep the event loop to itself. */
const turnMs = 10;
/** Files larger than this are read and diffed (or their lines counted) on the diff worker, never on the engine's thread. */
const offThreadBytes = 1_000_000;

/**
 * Each pair's diff, renames paired up, sorted by path. `context` null computes the counts only (the diffs
 * come back without hunks, from `counts` where the same sides were counted before); a number keeps that
 * many unchanged lines around each change (Infinity: every line). A deletion and a creation of the same
 * content (or the same symlink target) are one rename, as git's exact rename detection pairs them.
 */
export async function computeChanges(pairs: readonly PathPair[], { context, counts }: { context: number | null; counts?: ChangeCounts }): Promise<FileDiff[]> {
  const computed: Computed[] = new Array<Computed>(pairs.length);
  const indexed = pairs.map((pair, index) => ({ pair, index }));
  // The large pairs first, so the diff worker is on them while this thread counts the small ones. Those
  // are read synchronously, so the thread gives the event loop a turn every few milliseconds: the large
  // pairs' reads and hand-overs to the worker go on meanwhile (as do other requests), not after the last.
  const largeFirst = [...indexed.filter(({ pair }) => goesOffThread(pair)), ...indexed.filter(({ pair }) => !goesOffThread(pair))];
  let turnStart = performance.now();
  await forEachLimited(largeFirst, readsAtOnce, async ({ pair, index }) => {
    if (performance.now() - turnStart > turnMs) {
      await nextTurn();
      turnStart = performance.now();
    }
    computed[index] = await computeOne(pair, context, counts);
  });
  return pairRenames(computed, context).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * One pair's diff with `context` lines around each change; `oldPath` makes it a rename. A file that became
 * a symlink (or the other way) keeps every line, as its patch is a whole deletion and a whole creation.
 */
export async function diffPair(pair: PathPair, { oldPath, context }: { oldPath?: string; context: number }): Promise<FileDiff> {
  return (await loadAndDiff(pair, oldPath, context)).diff;
}

async function computeOne(pair: PathPair, context: number | null, counts: ChangeCounts | undefined): Promise<Computed> {
  const key = `${pair.path}\0${pair.before?.key ?? '-'}\0${pair.after?.key ?? '-'}`;
  if (context !== null) return loadAndDiff(pair, undefined, context);
  const known = counts?.get(key);
  if (known) return known;
  const counted = await loadAndDiff(pair, undefined, null);
  counts?.set(key, counted);
  return counted;
}

/** `context` null: the line counts only, no hunks (see lineChanges). */
async function loadAndDiff(pair: PathPair, oldPath: string | undefined, context: number | null): Promise<Computed> {
  if (goesOffThread(pair)) {
    const computed = await diffOnWorker(pair, oldPath, context).catch(() => null);
    // null: a checkpoint's copy could not be read or no thread could be had; the diff here then says why, or does the work itself.
    if (computed) return computed;
  }
  const [before, after] = await Promise.all([pair.before?.load() ?? null, pair.after?.load() ?? null]);
  const typeChanged = before !== null && after !== null && before.side.kind !== after.side.kind;
  const diff = diffFiles({
    path: pair.path,
    ...(oldPath === undefined ? {} : { oldPath }),
    before: before?.side ?? null,
    after: after?.side ?? null,
    context: typeChanged && context !== null ? Number.POSITIVE_INFINITY : context,
  });
  // Hashes only pair deletions with creations (renames): a file changed in place is not hashed.
  return { diff, beforeHash: after === null ? (before?.hash ?? null) : null, afterHash: before === null ? (after?.hash ?? null) : null };
}

/** Two files (or a file and nothing), the larger over 1 MB and small enough to compare at all. */
function goesOffThread({ before, after }: PathPair): boolean {
  const largest = Math.max(before?.size ?? 0, after?.size ?? 0);
  return largest > offThreadBytes && largest <= maxComparedBytes && (before === null || before.offThread !== undefined) && (after === null || after.offThread !== undefined);
}

/** The pair read, decoded and diffed on the diff worker. */
async function diffOnWorker(pair: PathPair, oldPath: string | undefined, context: number | null): Promise<Computed> {
  const [beforeInput, afterInput] = await Promise.all([pair.before?.offThread?.input() ?? null, pair.after?.offThread?.input() ?? null]);
  const result = await diffOffThread({ before: beforeInput, after: afterInput, context });
  const sideOf = (source: SideSource | null, found: DiffSideResult | null) => {
    if (!source || !found) return { meta: null, view: null, hash: null };
    const mode = source.offThread?.mode ?? 0;
    if ('unreadable' in found) return { meta: { kind: 'file', mode, size: source.size } as const, view: { notText: `unreadable: ${found.unreadable}` }, hash: null };
    return { meta: { kind: 'file', mode, size: found.size } as const, view: found.view, hash: found.hash };
  };
  const [before, after] = [sideOf(pair.before, result.before), sideOf(pair.after, result.after)];
  const diff = assembleDiff({
    path: pair.path,
    ...(oldPath === undefined ? {} : { oldPath }),
    before: before.meta,
    after: after.meta,
    context,
    beforeContent: before.view,
    afterContent: after.view,
    lines: result.lines,
  });
  return { diff, beforeHash: before.hash, afterHash: after.hash };
}

function pairRenames(computed: readonly Computed[], context: number | null): FileDiff[] {
  const deletedBy = new Map<string, Computed[]>();
  for (const entry of computed) {
    const identity = entry.diff.status === 'deleted' ? identityOf(entry.beforeHash, entry.diff.before) : null;
    if (identity) deletedBy.set(identity, [...(deletedBy.get(identity) ?? []), entry]);
  }
  if (deletedBy.size === 0) return computed.map((entry) => entry.diff);
  const renamed = new Set<Computed>();
  const results: FileDiff[] = [];
  for (const entry of computed) {
    const identity = entry.diff.status === 'added' ? identityOf(entry.afterHash, entry.diff.after) : null;
    const candidates = identity ? (deletedBy.get(identity) ?? []).filter((candidate) => !renamed.has(candidate)) : [];
    const from = candidates.find((candidate) => baseName(candidate.diff.path) === baseName(entry.diff.path)) ?? candidates[0];
    if (!from) continue;
    renamed.add(from).add(entry);
    results.push(renameOf(from.diff, entry.diff, context));
  }
  return [...results, ...computed.filter((entry) => !renamed.has(entry)).map((entry) => entry.diff)];
}

function renameOf(deleted: FileDiff, added: FileDiff, context: number | null): FileDiff {
  const [before, after] = [deleted.before, added.after];
  const modes = before?.mode !== undefined && after?.mode !== undefined && before.mode !== after.mode ? [`mode ${permissions(before.mode)} → ${permissions(after.mode)}`] : [];
  return {
    path: added.path,
    oldPath: deleted.path,
    status: 'renamed',
    added: 0,
    removed: 0,
    binary: added.binary,
    before,
    after,
    notes: modes,
    hunks: [],
    wholeFile: context === Number.POSITIVE_INFINITY,
    approximate: false,
  };
}

/** What makes two files the same content: the sha256 of a file, the target of a symlink. */
function identityOf(hash: string | null, side: FileSideView | null): string | null {
  if (side?.kind === 'symlink') return `link:${side.target ?? ''}`;
  return hash === null ? null : `file:${hash}`;
}

function baseName(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}
