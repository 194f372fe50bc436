import { parse } from 'shell-quote';

/** The command as plain words, or why it can never be allow-listed (one sentence, shown to the user). */
export type ParsedCommand = { ok: true; words: string[] } | { ok: false; reason: string };

/**
 * Text refused anywhere in a command, inside quotes too, in the order the reasons are tried. Quoted
 * `"a; b"` is harmless to sh, but refusing it costs one approval while judging quotes costs a parser
 * that must agree with sh in every corner. With all of these gone, and no backslash, a command's only
 * syntax is spaces and quotes, which shell-quote and sh read alike — so equal words mean equal argv.
 * (cmd.exe takes single quotes literally: there `rm 'x'` names the file `'x'`, a different name but
 * never a different command.)
 */
const refusedText: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\n\r]/, 'It spans more than one line, and the shell runs each line as a command of its own.'],
  [/(?![ \t])[\p{Cc}\p{Cf}\p{Z}\s]/u, 'It has control characters, invisible characters or unusual spaces.'],
  [/`|\$\(|[<>]\(/, 'It runs a command inside another (backticks, $(…) or <(…)).'],
  [/;|&&|\|\|/, 'It chains commands with ;, && or ||.'],
  [/[<>]/, 'It redirects input or output with < or >.'],
  [/\|/, 'It pipes one command into another with |.'],
  [/&/, 'It runs a command in the background with &.'],
  [/\$/, 'It expands a variable with $.'],
  [/[()]/, 'It has parentheses, which the shell reads as a subshell.'],
  [/[{}]/, 'It has braces, which the shell can expand or read as a group of commands.'],
  [/[*?[\]]/, 'It has a wildcard (*, ? or [ ]) that the shell expands into file names.'],
  [/(?<!\w)~/, 'It has a ~ that the shell can expand into a home folder.'],
  [/#/, 'It has a #, which can start a comment that hides the rest of the line.'],
  [/\\/, 'It has a backslash, which sh and cmd.exe read differently.'],
  [/%/, 'It has a %, which cmd.exe expands as a variable.'],
];

/**
 * Splits `command` into words when it is one simple command: a program and its arguments, with quotes
 * only for grouping. Anything else — chaining, pipes, backgrounding, redirection, substitution,
 * variables, globs, braces, `~`, comments, backslashes, `%`, newlines and other control characters,
 * an unclosed quote, a leading `NAME=value` — is refused with a reason, never interpreted.
 */
export function parseSimpleCommand(command: string): ParsedCommand {
  if (command.trim() === '') return { ok: false, reason: 'The command is empty.' };
  for (const [pattern, reason] of refusedText) {
    if (pattern.test(command)) return { ok: false, reason };
  }
  // shell-quote silently closes an unterminated quote, so that is checked here.
  if (hasUnclosedQuote(command)) return { ok: false, reason: 'It has a quote that is never closed.' };
  const words: string[] = [];
  for (const entry of parse(command)) {
    if (typeof entry !== 'string') return { ok: false, reason: 'It has shell syntax beyond plain words.' };
    words.push(entry);
  }
  const program = words[0];
  if (program === undefined || program === '') return { ok: false, reason: 'The command is empty.' };
  if (program.includes('=')) return { ok: false, reason: 'It starts by setting a variable, which changes how the command runs.' };
  return { ok: true, words };
}

/**
 * True only when `command` is a simple command whose words equal one entry's words exactly.
 *
 * Extra words never match (`rg foo` does not allow `rg --pre=sh foo`), and neither does a command that
 * `allowListable` refuses, so an entry added to the settings by hand cannot allow `sh -c …`.
 */
export function matchesAllowList(command: string, entries: readonly string[]): boolean {
  const parsed = allowListable(command);
  if (!parsed.ok) return false;
  return entries.some((entry) => {
    const allowed = parseSimpleCommand(entry);
    return allowed.ok && sameWords(allowed.words, parsed.words);
  });
}

/** Whether a command may be offered "always allow" at all (simple, and not a known dangerous program/flag). */
export function allowListable(command: string): ParsedCommand {
  const parsed = parseSimpleCommand(command);
  if (!parsed.ok) return parsed;
  const reason = runsOtherCodeReason(parsed.words);
  return reason === null ? parsed : { ok: false, reason };
}

interface ExecRule {
  /** Matched against the first word's file name, lower-cased, without .exe/.cmd/.bat/.com. */
  readonly program: RegExp;
  /**
   * Options and subcommands that run code, write or delete files. `--name` also matches `--name=value`, a
   * two-character `-x` also matches `-xvalue`, anything else matches exactly. Absent: the program itself.
   */
  readonly words?: readonly string[];
  /** Letters that, anywhere in a short-option cluster such as `-pe` or `-Bc`, take code to run. */
  readonly letters?: string;
  /** The rule applies only when the command also has this word, e.g. git's `-u` only with `clone`. */
  readonly onlyWith?: string;
  readonly reason: string;
}

const gitReason = 'It can make git run other programs, write other files or change its configuration.';
const codeReason = 'It runs code given on the command line.';
const packageReason = 'It runs a package that it may download first.';
const elsewhereReason = 'It points the runner at other files or folders than the ones an allowance is bound to.';

/**
 * Programs and options that run code chosen by their arguments. Matching is exact, so a match could
 * only ever repeat the same command — but "always allow" on these means trusting whatever that code,
 * package or remote does on every later run, so the user is asked each time.
 */
const execRules: readonly ExecRule[] = [
  { program: /^(sh|bash|zsh|dash|ksh|fish|csh|tcsh|cmd|powershell|pwsh|wsl)$/, reason: 'It starts a shell, which can run anything.' },
  {
    program: /^(env|sudo|doas|su|xargs|nohup|nice|timeout|time|watch|setsid|stdbuf|exec|eval|source|\.|command|builtin|busybox|start|ssh)$/,
    reason: 'It runs another command given in its arguments.',
  },
  { program: /^(npx|pnpx|bunx)$/, reason: packageReason },
  { program: /^(npm|pnpm|yarn|bun)$/, words: ['exec', 'x', 'dlx'], reason: packageReason },
  { program: /^(node|nodejs|bun|deno)$/, words: ['--eval', '--print', 'eval'], letters: 'ep', reason: codeReason },
  { program: /^(python[\d.]*|py)$/, letters: 'c', reason: codeReason },
  { program: /^(perl|ruby)$/, letters: 'eE', reason: codeReason },
  { program: /^php$/, letters: 'r', reason: codeReason },
  {
    program: /^git$/,
    words: [
      ...['-c', '--config-env', '--exec-path', 'config'],
      ...['--upload-pack', '--receive-pack', '--exec', '-x', '--extcmd', '--open-files-in-pager', '-O', 'foreach'],
      '--output',
    ],
    reason: gitReason,
  },
  { program: /^git$/, words: ['-u'], onlyWith: 'clone', reason: gitReason },
  { program: /^git$/, words: ['run'], onlyWith: 'bisect', reason: gitReason },
  // Runners whose allowance is bound to the files they read in the command's folder (commandDefinitions.ts).
  {
    program: /^(npm|pnpm|yarn|bun)$/,
    words: ['--prefix', '-C', '--cwd', '--dir', '-w', '--workspace', '--workspaces', '--filter', '-F', '-r', '--recursive', 'workspace', 'workspaces'],
    reason: elsewhereReason,
  },
  { program: /^(make|gmake)$/, words: ['-f', '--file', '--makefile', '-C', '--directory', '-I', '--include-dir'], reason: elsewhereReason },
  { program: /^just$/, words: ['-f', '--justfile', '-d', '--working-directory'], reason: elsewhereReason },
  { program: /^(task|go-task)$/, words: ['-t', '--taskfile', '-d', '--dir'], reason: elsewhereReason },
  { program: /^cargo$/, words: ['--manifest-path', '--config', '-C'], reason: elsewhereReason },
  { program: /^go$/, words: ['-C', '-modfile'], reason: elsewhereReason },
  { program: /^go$/, words: ['generate'], reason: 'It runs the commands written in `//go:generate` lines of the source files.' },
  { program: /^(pytest|py\.test)$/, words: ['-c', '-p', '--rootdir', '--confcutdir', '-o', '--override-ini'], reason: elsewhereReason },
  { program: /^(python[\d.]*|py)$/, words: ['-p', '--rootdir', '--confcutdir', '-o', '--override-ini'], onlyWith: 'pytest', reason: elsewhereReason },
  { program: /^(gradle|gradlew)$/, words: ['-b', '--build-file', '-c', '--settings-file', '-p', '--project-dir', '-I', '--init-script'], reason: elsewhereReason },
  { program: /^(mvn|mvnw)$/, words: ['-f', '--file', '-s', '--settings', '-gs', '--global-settings'], reason: elsewhereReason },
  { program: /^rake$/, words: ['-f', '--rakefile', '-C', '--directory', '-r', '--require'], reason: elsewhereReason },
  { program: /^(rg|ripgrep)$/, words: ['--pre'], reason: 'Its --pre option runs a program on every file it searches.' },
  { program: /^find$/, words: ['-exec', '-execdir', '-ok', '-okdir', '-delete'], reason: 'Its -exec and -delete actions run commands or delete files.' },
  { program: /^(fd|fdfind)$/, words: ['-x', '--exec', '-X', '--exec-batch'], reason: 'Its --exec option runs a command for every file it finds.' },
  {
    program: /^(tar|bsdtar)$/,
    words: ['--to-command', '--checkpoint-action', '--use-compress-program', '-I'],
    reason: 'It can run another program on the files it handles.',
  },
];

function runsOtherCodeReason(words: readonly string[]): string | null {
  const [first = '', ...args] = words;
  const program = programName(first);
  const rule = execRules.find(
    (candidate) =>
      candidate.program.test(program) &&
      (candidate.onlyWith === undefined || args.includes(candidate.onlyWith)) &&
      (isWholeProgram(candidate) || args.some((arg) => matchesOption(candidate, arg))),
  );
  return rule?.reason ?? interpreterScriptReason(program, args);
}

/** Interpreters whose allowance is bound to the script they are given (commandDefinitions.ts). */
const scriptInterpreters = /^(node|nodejs|tsx|ts-node|python[\d.]*|py|ruby|perl|php|lua|rscript)$/;
const unboundScriptReason =
  'Which code it runs cannot be bound to a file: an allowance is bound to the script an interpreter is given first, named with its extension (`node tools/gen.js`, `python -m tool`), and options before it may load other code.';

/**
 * Why an interpreter's command cannot keep an allowance: the script it runs must be the first word after
 * it, a file named with its extension, or a module after a leading `-m` (Python), so that the allowance
 * is bound to the code that runs (and asks again when it changes). An option before the script may load
 * other code (`node -r ./setup.cjs app.js`) or take a value read as the script (`python -W ignore app.py`),
 * and `node .` or `node app` run a file the command does not name.
 */
function interpreterScriptReason(program: string, args: readonly string[]): string | null {
  if (!scriptInterpreters.test(program)) return null;
  const [first, second] = args;
  if (first === undefined) return null; // a prompt, running nothing of the folder's
  if (first === '-m' && /^python|^py$/.test(program)) return second !== undefined && /^[\w.]+$/.test(second) ? null : unboundScriptReason;
  return first.startsWith('-') || !/\.[a-z0-9]+$/i.test(first) ? unboundScriptReason : null;
}

function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1).toLowerCase();
  return base.replace(/\.(exe|cmd|bat|com)$/, '');
}

function isWholeProgram(rule: ExecRule): boolean {
  return rule.words === undefined && rule.letters === undefined;
}

function matchesOption(rule: ExecRule, arg: string): boolean {
  if (rule.words?.some((word) => matchesWord(word, arg))) return true;
  const letters = rule.letters;
  if (letters === undefined || !/^-[^-]/.test(arg)) return false;
  return [...arg.slice(1)].some((char) => letters.includes(char));
}

function matchesWord(word: string, arg: string): boolean {
  if (word.startsWith('--')) return arg === word || arg.startsWith(`${word}=`);
  if (/^-.$/.test(word)) return arg.startsWith(word);
  return arg === word;
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, index) => word === b[index]);
}

/** Sound only because backslashes are refused first: with them gone, no quote can be escaped. */
function hasUnclosedQuote(text: string): boolean {
  let open: string | null = null;
  for (const char of text) {
    if (open === null && (char === '"' || char === "'")) open = char;
    else if (char === open) open = null;
  }
  return open !== null;
}
