import { z } from 'zod';
import { candidateFiles } from './search/candidateFiles.js';
import { runSearch, type SearchLimits, type SearchOutcome } from './search/runSearch.js';
import { SearchError } from './search/searchErrors.js';
import { compilePattern } from './search/searchPattern.js';
import { refuseHiddenFolder } from '../workspace/pathRules.js';
import { SkippedSubtrees } from '../workspace/unreachable.js';
import type { Workspace, WorkspacePath } from '../workspace/workspace.js';
import { counted } from './counted.js';
import { ToolError, defineTool } from './tool.js';
import { shownName } from '../workspace/shownName.js';

const defaultMaxResults = 100;
const maxMaxResults = 1000;

const parameters = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Regular expression in JavaScript syntax, e.g. "function\\s+load\\w*" or "TODO|FIXME". Start it with (?i) to ignore case. ' +
        'Escape ( ) [ ] { } . * + ? ^ $ | with a backslash to match them literally.',
    ),
  path: z.string().optional().describe('Folder to search, or one file, relative to the project folder. Default "." (the whole project).'),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob. Without "/" it matches file names ("*.ts", "*.{ts,tsx}"); with "/" the path inside `path` ("src/**/*.test.ts").'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(maxMaxResults)
    .optional()
    .describe(`Return at most this many matching lines. Default ${defaultMaxResults}, at most ${maxMaxResults}.`),
});

type SearchParams = z.output<typeof parameters>;

/** The search_files tool; `limits` lets tests shorten its deadlines. */
export function searchFilesTool(limits: Partial<SearchLimits> = {}) {
  return defineTool({
    name: 'search_files',
    description:
      'Search the contents of text files with a regular expression, like grep or ripgrep. Returns the matching lines as ' +
      '"path:line: text" (paths from the project folder, long lines cut around the match), in file order, with a count. ' +
      'Files ignored by .gitignore, binary files, .git/ and .workbench/ are not searched. A match spanning lines is listed at ' +
      'the line where it starts. Use it to find where something is defined or used, then read_file around those lines.',
    parameters,
    mutates: false,
    async run(args, { workspace, signal }) {
      try {
        const regex = compilePattern(args.pattern);
        const target = await workspace.resolve(args.path ?? '.', 'read');
        const kind = await searchableKind(workspace, target);
        const skipped = new SkippedSubtrees(workspace.unreachable.report);
        const files = kind === 'folder' ? candidateFiles({ root: workspace.root, from: target.rel, glob: args.glob, signal, onUnreachable: skipped.add }) : oneFile(target.rel);
        const outcome = await runSearch({ root: workspace.root, files, regex, maxResults: args.max_results ?? defaultMaxResults, signal, limits });
        return { text: [report(args, { kind, where: target.rel === '' ? 'the project folder' : target.requested }, outcome), ...skipped.note()].join('\n') };
      } catch (error) {
        if (error instanceof SearchError) throw new ToolError(error.message);
        throw error;
      }
    },
  });
}

export const searchFiles = searchFilesTool();

async function searchableKind(workspace: Workspace, target: WorkspacePath): Promise<'folder' | 'file'> {
  refuseHiddenFolder(target, 'searched');
  const info = await workspace.statIfExists(target);
  if (!info) throw new ToolError(`${target.requested} does not exist. Use list_files or get_file_map to see what is there.`);
  if (info.isDirectory()) return 'folder';
  if (info.isFile()) return 'file';
  throw new ToolError(`${target.requested} is not a regular file or folder, so it cannot be searched.`);
}

async function* oneFile(relPath: string): AsyncGenerator<string[]> {
  yield [relPath];
}

interface Searched {
  kind: 'folder' | 'file';
  /** The path as the model wrote it, or "the project folder". */
  where: string;
}

function report(args: SearchParams, { kind, where }: Searched, outcome: SearchOutcome): string {
  if (kind === 'file' && outcome.binary > 0) throw new ToolError(`${where} is a binary file; search_files searches text files only.`);
  if (outcome.unreadable > 0 && kind === 'file') throw new ToolError(`${where} could not be read.`);
  const lines = outcome.files.flatMap((file) => file.lines.map((line, index) => `${shownName(file.path)}:${line}: ${file.texts[index]}`));
  const notes = skipNotes(outcome);
  if (outcome.matches === 0) return [noMatches(args, { kind, where }, outcome), ...notes].join('\n');
  const matchWord = counted(outcome.matches, 'matching line', 'matching lines');
  const fileWord = counted(outcome.files.length, 'file', 'files');
  if (!outcome.capped) return [`${matchWord} in ${fileWord}:`, ...lines, ...notes].join('\n');
  const raise = (args.max_results ?? defaultMaxResults) < maxMaxResults ? `, or raise max_results (at most ${maxMaxResults})` : '';
  return [
    `First ${matchWord} in ${fileWord} (there are more):`,
    ...lines,
    `Stopped at max_results = ${outcome.matches}; more lines match. Narrow the search with a more specific pattern, a path or a glob${raise}.`,
    ...notes,
  ].join('\n');
}

function noMatches(args: SearchParams, { kind, where }: Searched, outcome: SearchOutcome): string {
  if (kind === 'file') return `No matches for /${args.pattern}/ in ${where}.`;
  if (outcome.searched + outcome.binary + outcome.unreadable === 0) {
    return args.glob
      ? `No files in ${where} match the glob "${args.glob}" (files ignored by .gitignore are not searched).`
      : `No files to search in ${where} (files ignored by .gitignore are not searched).`;
  }
  const among = args.glob ? ` matching "${args.glob}"` : '';
  return `No matches for /${args.pattern}/ in ${counted(outcome.searched, 'file', 'files')}${among} in ${where} (files ignored by .gitignore are not searched).`;
}

function skipNotes({ binary, unreadable }: SearchOutcome): string[] {
  return [
    ...(binary > 0 ? [`(${counted(binary, 'binary file', 'binary files')} skipped.)`] : []),
    ...(unreadable > 0 ? [`(${counted(unreadable, 'file', 'files')} could not be read and ${unreadable === 1 ? 'was' : 'were'} skipped.)`] : []),
  ];
}
