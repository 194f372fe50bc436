import { lstat } from 'node:fs/promises';
import path from 'node:path';
import {
  totalsOf,
  type ApprovalPreview,
  type ChangeList,
  type ChangeRange,
  type FileChange,
  type FileDiff,
  type RevertResult,
  type UnsequencedEvent,
} from '../contract/index.js';
import type { ApprovalBroker } from '../approvals/approvalBroker.js';
import type { CheckpointContents, CheckpointStore } from '../checkpoints/checkpointStore.js';
import { sameContent, type FileRecord } from '../checkpoints/workspaceState.js';
import type { ConversationStore } from '../store/conversation.js';
import type { PendingWrites } from '../store/pendingWrites.js';
import { lexicalPath } from '../workspace/pathRules.js';
import type { Workspace } from '../workspace/workspace.js';
import { RunRefusedError } from '../contract/runRefusedError.js';
import { previewToolCall } from './approvalPreview.js';
import { changeEnds, latestRequest, type ChangeEnds } from './changeEnds.js';
import { ChangeCounts, computeChanges, diffPair, type PathPair } from './computeChanges.js';
import { revertFiles } from './revertFiles.js';
import { checkpointSource, folderSource, type LoadedSide } from './sideSources.js';

export interface ChangesServiceDeps {
  workspace: Workspace;
  checkpoints: CheckpointStore;
  conversation: Pick<ConversationStore, 'load'>;
  broker: Pick<ApprovalBroker, 'requestOf'>;
  /** Where a revert journals the temp file it puts beside each file it brings back (see PendingWrites). */
  journal?: PendingWrites | null;
  emit: (event: UnsequencedEvent) => void;
}

/** Unchanged lines kept around each change: every line for files up to this size (so each fold opens), else 3. */
const wholeFileBytes = 1_000_000;
/** Checkpoint contents and lists between two checkpoints kept in memory: checkpoints never change. */
const keptContents = 6;
const keptLists = 50;

/**
 * The changes of each request, read from the checkpoints and the folder: lists with line counts, diffs,
 * reverts of single files, and previews of what an approval would change. Lists between two checkpoints
 * are kept (they never change); line counts are kept per file and version, so a live list recomputes only
 * what changed since.
 */
export class ChangesService {
  private readonly counts = new ChangeCounts();
  private readonly contents = new Map<string, Promise<CheckpointContents>>();
  private readonly lists = new Map<string, FileChange[]>();
  /** Where the running request's changes start, kept for the run's recounts (see announce). */
  private runEnds: { runId: string; messageId: string; ends: ChangeEnds } | null = null;

  constructor(private readonly deps: ChangesServiceDeps) {}

  /** The files the message's request changed (range 'request') or that changed since before it ('since'), with counts. */
  async list(messageId: string, range: ChangeRange = 'request'): Promise<ChangeList> {
    return this.listBetween(await changeEnds(this.deps, messageId, range), range);
  }

  private async listBetween(ends: ChangeEnds, range: ChangeRange, changedPaths?: readonly string[]): Promise<ChangeList> {
    const listed = await this.filesBetween(ends, changedPaths);
    const files = ends.afterId === null ? listed : await this.markReverted(ends.beforeId, listed);
    return { messageId: ends.request.id, range, until: ends.afterId === null ? 'folder' : 'next-request', files, totals: totalsOf(files) };
  }

  /**
   * Diffs of the request's files: those at `paths` (a rename is found by either of its paths), or all of
   * them. `context` 'auto' keeps every line of files up to 1 MB, so the app can open each fold.
   */
  async diffs(messageId: string, { range = 'request', paths, context = 3 }: { range?: ChangeRange; paths?: readonly string[]; context?: number | 'auto' }): Promise<FileDiff[]> {
    const ends = await changeEnds(this.deps, messageId, range);
    if (!paths) return computeChanges(await this.pairsOf(ends), { context: context === 'auto' ? 3 : context });
    return this.diffsAt(ends, paths, context);
  }

  /**
   * One file's diff in the request (by either path of a rename); refused when the request did not change
   * it. A file changed in place is diffed alone; one created or deleted may be half of a rename, which
   * only the whole list tells.
   */
  async fileDiff(messageId: string, filePath: string, range: ChangeRange = 'request'): Promise<FileDiff> {
    const ends = await changeEnds(this.deps, messageId, range);
    const pair = await this.pairAt(ends, filePath);
    const [diff] = pair?.before && pair.after ? [await diffPair(pair, { context: contextFor(pair.before.size, pair.after.size, 'auto') })] : await this.diffsAt(ends, [filePath], 'auto');
    if (!diff) throw new RunRefusedError(`${filePath} is not among the files ${range === 'request' ? 'this request changed' : 'changed since this request'}.`);
    return diff;
  }

  private async diffsAt(ends: ChangeEnds, paths: readonly string[], context: number | 'auto'): Promise<FileDiff[]> {
    const wanted = new Set(paths);
    const byPath = new Map((await this.pairsOf(ends)).map((pair) => [pair.path, pair]));
    const files = (await this.filesBetween(ends)).filter((file) => wanted.has(file.path) || (file.oldPath !== undefined && wanted.has(file.oldPath)));
    return Promise.all(
      files.map((file) => {
        const pair = { path: file.path, before: byPath.get(file.oldPath ?? file.path)?.before ?? null, after: byPath.get(file.path)?.after ?? null };
        const lines = contextFor(file.before?.size ?? 0, file.after?.size ?? 0, context);
        return diffPair(pair, { ...(file.oldPath === undefined ? {} : { oldPath: file.oldPath }), context: lines });
      }),
    );
  }

  /** The sides of one path between the two ends, or null when it is the same at both. */
  private async pairAt({ beforeId, afterId }: ChangeEnds, relPath: string): Promise<PathPair | null> {
    const before = await this.contentsOf(beforeId);
    const was = before.files.get(relPath);
    if (afterId !== null) {
      const now = (await this.contentsOf(afterId)).files.get(relPath);
      if (was?.type === 'unrecorded' || now?.type === 'unrecorded' || (was && now && sameContent(was, now)) || (!was && !now)) return null;
      return { path: relPath, before: checkpointSource(before, was), after: checkpointSource(await this.contentsOf(afterId), now) };
    }
    // The one path compared directly, without scanning the whole folder.
    const now = await folderSource(this.deps.workspace.root, relPath);
    if (was?.type === 'unrecorded' || (!was && !now)) return null;
    // Another size is another content: the file is left for the diff to read (on the diff worker, when large).
    if (was?.type === 'file' && now && now.size !== was.size) return { path: relPath, before: checkpointSource(before, was), after: now };
    const loaded = now && (await now.load());
    if (was && loaded && sameSide(was, loaded)) return null;
    return { path: relPath, before: checkpointSource(before, was), after: now && loaded ? { ...now, load: async () => loaded } : null };
  }

  /**
   * Puts files back as they were before the message's request, after a checkpoint (tagged with the latest
   * request, so undo keeps it) from which `undoRevert` puts them back again. The caller makes sure no run
   * is active. An undo names the request it leaves latest (`keptBy`, null for none), whose checkpoints keep
   * that one and whose changes are announced.
   */
  async revert(messageId: string, paths: readonly string[], { keptBy }: { keptBy?: string | null } = {}): Promise<RevertResult> {
    const ends = await changeEnds(this.deps, messageId, 'request');
    const from = await this.contentsOf(ends.beforeId);
    for (const requested of paths) {
      const rel = lexicalPath(requested, this.deps.workspace.root);
      if (!from.files.has(rel) && !(await this.exists(rel))) throw new RunRefusedError(`There is no file "${requested}", before that request or now.`);
    }
    return this.putBackFrom(from, paths, 'revert_file', keptBy);
  }

  /** Takes a revert back: the files as they were in the checkpoint taken just before it. */
  async undoRevert(revertId: string, paths: readonly string[]): Promise<RevertResult> {
    return this.putBackFrom(await this.deps.checkpoints.readCheckpoint(revertId), paths, 'undo_revert');
  }

  /** What an approval waiting for an answer would change, with its own arguments or edited ones. */
  async previewApproval(requestId: string, args?: Record<string, unknown>): Promise<ApprovalPreview> {
    const pending = this.deps.broker.requestOf(requestId);
    if (!pending) throw new RunRefusedError('This approval request is no longer waiting for an answer.');
    return previewToolCall(this.deps.workspace, pending.tool, args ?? pending.args);
  }

  /**
   * Emits the request's current totals as `changes-updated`. A run recounts after every tool call that may
   * have changed the folder; where its request's changes start (its message, its checkpoint) stays put
   * while it runs, so it is looked up once per run, not in the conversation and checkpoint list each time.
   * `changedPaths`: the files the run's calls since its last recount named as all they changed (writes and
   * edits); only those are looked at again, except in a run's first recount, which looks at the whole
   * folder (what happened between runs, an undo say, is then known too).
   */
  async announce(messageId: string, runId: string | null, changedPaths: readonly string[] | null = null): Promise<void> {
    const followed = runId !== null && this.runEnds?.runId === runId && this.runEnds.messageId === messageId;
    const paths = followed && changedPaths ? lexicalPaths(changedPaths, this.deps.workspace.root) : undefined;
    const { totals, messageId: request } = await this.listBetween(await this.endsFor(messageId, runId), 'request', paths ?? undefined);
    this.deps.emit({ type: 'changes-updated', runId, messageId: request, ...totals });
  }

  /** The ends of the latest request's changes, up to the folder now: taken from the run's first recount while it runs. */
  private async endsFor(messageId: string, runId: string | null): Promise<ChangeEnds> {
    const kept = this.runEnds;
    if (runId !== null && kept?.runId === runId && kept.messageId === messageId) return kept.ends;
    const ends = await changeEnds(this.deps, messageId, 'request');
    if (runId !== null && ends.afterId === null) this.runEnds = { runId, messageId, ends };
    return ends;
  }

  private async putBackFrom(from: CheckpointContents, paths: readonly string[], tool: string, keptBy?: string | null): Promise<RevertResult> {
    const latest = await latestRequest(this.deps.conversation);
    if (!latest) throw new RunRefusedError('This folder has no request yet, so there is nothing to revert.');
    const kept = keptBy === undefined ? latest.id : keptBy;
    const { root } = this.deps.workspace;
    const result = await revertFiles({
      root,
      checkpoints: this.deps.checkpoints,
      from,
      paths,
      tag: { reason: 'tool', messageId: kept ?? latest.id, tool },
      journal: this.deps.journal ?? null,
    });
    if (kept !== null) await this.announce(kept, null).catch(() => undefined);
    return result;
  }

  private async filesBetween(ends: ChangeEnds, changedPaths?: readonly string[]): Promise<FileChange[]> {
    const key = ends.afterId === null ? null : `${ends.beforeId}>${ends.afterId}`;
    const kept = key === null ? undefined : this.lists.get(key);
    if (kept) return kept;
    const diffs = await computeChanges(await this.pairsOf(ends, changedPaths), { context: null, counts: this.counts });
    const files = diffs.map(({ hunks: _hunks, wholeFile: _whole, approximate: _approximate, ...file }) => file);
    if (key !== null) remember(this.lists, key, files, keptLists);
    return files;
  }

  /** Every path whose content differs between the two ends, with where each side comes from; see CheckpointStore.changesSince for `changedPaths`. */
  private async pairsOf({ beforeId, afterId }: ChangeEnds, changedPaths?: readonly string[]): Promise<PathPair[]> {
    const before = await this.contentsOf(beforeId);
    if (afterId !== null) {
      const after = await this.contentsOf(afterId);
      const paths = new Set([...before.files.keys(), ...after.files.keys()]);
      return [...paths].flatMap((relPath) => {
        const [was, now] = [before.files.get(relPath), after.files.get(relPath)];
        if (was?.type === 'unrecorded' || now?.type === 'unrecorded' || (was && now && sameContent(was, now))) return [];
        return [{ path: relPath, before: checkpointSource(before, was), after: checkpointSource(after, now) }];
      });
    }
    const changed = (await this.deps.checkpoints.changesSince(beforeId, changedPaths ? { changedPaths } : {})).filter((change) => change.kind !== 'folder');
    const pairs = await Promise.all(
      changed.map(async ({ path: relPath, change }) => ({
        path: relPath,
        before: checkpointSource(before, before.files.get(relPath)),
        after: change === 'recreated' ? null : await folderSource(this.deps.workspace.root, relPath),
      })),
    );
    return pairs.filter((pair) => pair.before !== null || pair.after !== null);
  }

  /** Marks the files of an earlier request that are back as they were before it. */
  private async markReverted(beforeId: string, files: FileChange[]): Promise<FileChange[]> {
    const since = new Set((await this.deps.checkpoints.changesSince(beforeId)).map((change) => change.path));
    return files.map((file) => (since.has(file.path) || (file.oldPath !== undefined && since.has(file.oldPath)) ? file : { ...file, revertedSince: true }));
  }

  private contentsOf(id: string): Promise<CheckpointContents> {
    let contents = this.contents.get(id);
    if (!contents) {
      contents = this.deps.checkpoints.readCheckpoint(id);
      contents.catch(() => this.contents.delete(id));
      remember(this.contents, id, contents, keptContents);
    }
    return contents;
  }

  private async exists(rel: string): Promise<boolean> {
    return lstat(path.join(this.deps.workspace.root, rel)).then(
      () => true,
      () => false,
    );
  }
}

/** Every line for files up to 1 MB with 'auto' (so the app can open each fold), else the context asked for (3 lines for 'auto'). */
function contextFor(beforeSize: number, afterSize: number, context: number | 'auto'): number {
  if (context !== 'auto') return context;
  return Math.max(beforeSize, afterSize) <= wholeFileBytes ? Number.POSITIVE_INFINITY : 3;
}

/** Whether the folder's file is what the checkpoint recorded: content and mode, or the link's target. */
function sameSide(record: FileRecord, loaded: LoadedSide): boolean {
  const { side } = loaded;
  if (record.type === 'symlink') return side.kind === 'symlink' && side.target === record.target;
  return record.type === 'file' && side.kind === 'file' && side.mode === record.mode && loaded.hash === record.hash;
}

/** The paths as the folder's scans name them; null when one is no path inside the folder (then the whole folder is looked at). */
function lexicalPaths(requested: readonly string[], root: string): string[] | null {
  try {
    return requested.map((one) => lexicalPath(one, root));
  } catch {
    return null;
  }
}

function remember<T>(map: Map<string, T>, key: string, value: T, limit: number): void {
  if (map.size >= limit) map.delete(map.keys().next().value as string);
  map.set(key, value);
}
