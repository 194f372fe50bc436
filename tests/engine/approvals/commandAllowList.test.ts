import { describe, expect, it } from 'vitest';
import { allowListable, matchesAllowList, parseSimpleCommand } from '../../../engine/approvals/commandAllowList.js';

const entries = ['git status', 'git show', 'rg foo', 'rm x', 'echo hi', 'ls', 'cat README.md'];

describe('parseSimpleCommand', () => {
  it.each([
    ['git status', ['git', 'status']],
    ['  git \t status  ', ['git', 'status']],
    ["git 'status'", ['git', 'status']],
    ['git commit -m "fix: the bug"', ['git', 'commit', '-m', 'fix: the bug']],
    ["git commit -m ''", ['git', 'commit', '-m', '']],
    ['a"b c"d', ['ab cd']],
    ['git show HEAD~1', ['git', 'show', 'HEAD~1']],
  ])('splits %j into words', (command, words) => {
    expect(parseSimpleCommand(command)).toEqual({ ok: true, words });
  });

  it.each([
    ['', 'The command is empty.'],
    ['   ', 'The command is empty.'],
    ["'' status", 'The command is empty.'],
    ['git status\nrm x', 'It spans more than one line, and the shell runs each line as a command of its own.'],
    ['git status; rm x', 'It chains commands with ;, && or ||.'],
    ['git status | sh', 'It pipes one command into another with |.'],
    ['rm x &', 'It runs a command in the background with &.'],
    ['git show > .git/hooks/pre-commit', 'It redirects input or output with < or >.'],
    ['echo $(id)', 'It runs a command inside another (backticks, $(…) or <(…)).'],
    ['echo $HOME', 'It expands a variable with $.'],
    ['FOO=1 rm -rf x', 'It starts by setting a variable, which changes how the command runs.'],
    ["git 'status", 'It has a quote that is never closed.'],
    ['rm *', 'It has a wildcard (*, ? or [ ]) that the shell expands into file names.'],
  ])('refuses %j: %s', (command, reason) => {
    expect(parseSimpleCommand(command)).toEqual({ ok: false, reason });
  });
});

describe('matchesAllowList', () => {
  it.each([
    ['git status', 'git status'],
    ['  git   status ', 'git status'],
    ["git 'status'", 'git status'],
    ['git "status"', 'git status'],
    ['echo "hi"', 'echo hi'],
    ["cat 'README.md'", 'cat README.md'],
    ["git commit -m 'fix typo'", 'git commit -m "fix typo"'],
    ['git show HEAD~1', 'git show HEAD~1'],
  ])('allows %j when the list holds %j', (command, entry) => {
    expect(matchesAllowList(command, ['ls', entry])).toBe(true);
  });

  const lines = /more than one line/;
  const chains = /chains commands/;
  const redirects = /redirects/;
  const substitutes = /inside another/;
  const variable = /variable/;
  const wildcard = /wildcard/;
  const invisible = /control characters/;
  const unclosed = /never closed/;
  const differentWords = null;

  // Each command starts with, or spells differently, an entry of the list; none may match it.
  it.each([
    ['git status\nrm x', lines],
    ['git status\rrm x', lines],
    ['git status \\\nrm x', lines],
    ['git status; rm x', chains],
    ['git status;rm x', chains],
    ['git status && rm x', chains],
    ['git status || rm x', chains],
    ['{ rm x; }', chains],
    ['git status | sh', /pipes/],
    ['git status & rm x', /background/],
    ['rm x &', /background/],
    ['git show > .git/hooks/pre-commit', redirects],
    ['git show >> .git/hooks/pre-commit', redirects],
    ['echo hi > x', redirects],
    ['echo hi 2>&1', redirects],
    ['cat README.md < /etc/passwd', redirects],
    ['echo $(id)', substitutes],
    ['echo `id`', substitutes],
    ['echo hi `id`', substitutes],
    ['cat <(rm x)', substitutes],
    ['echo $HOME', variable],
    ['echo ${HOME}', variable],
    ['echo %PATH%', variable],
    ['FOO=1 rm -rf x', variable],
    ['FOO=1 rm x', variable],
    ['(rm x)', /parentheses/],
    ['echo {hi,there}', /braces/],
    ['rm x*', wildcard],
    ['rm ?', wildcard],
    ['rm [x]', wildcard],
    ['rm ~/x', /home folder/],
    ['echo hi #rm x', /comment/],
    ['echo hi\\ there', /backslash/],
    ["git 'status", unclosed],
    ['git "status', unclosed],
    ['git\u00a0status', invisible],
    ['git status\u0000', invisible],
    ['rm x\u202e', invisible],
    ['git status\u2028rm x', invisible],
    ['rm\tx\v', invisible],
    ['rg --pre=sh foo', differentWords],
    ['rg --pre sh foo', differentWords],
    ['rm -rf x', differentWords],
    ['git status --porcelain', differentWords],
    ['sh -c "git status"', differentWords],
  ])('asks for %j', (command, refusal) => {
    expect(matchesAllowList(command, entries)).toBe(false);
    const parsed = parseSimpleCommand(command);
    if (refusal === null) expect(parsed.ok).toBe(true);
    else expect(parsed.ok ? 'parsed' : parsed.reason).toMatch(refusal);
  });

  it('never matches an entry that is not itself a plain command', () => {
    expect(matchesAllowList('git status; rm x', ['git status; rm x'])).toBe(false);
    expect(matchesAllowList('echo $HOME', ['echo $HOME'])).toBe(false);
  });

  it('never matches an entry that would not be offered "always allow", even one added by hand', () => {
    expect(matchesAllowList('sh -c ls', ['sh -c ls'])).toBe(false);
    expect(matchesAllowList('rg --pre=sh foo', ['rg --pre=sh foo'])).toBe(false);
  });

  it('compares words exactly, including case', () => {
    expect(matchesAllowList('Git status', entries)).toBe(false);
    expect(matchesAllowList('git', entries)).toBe(false);
    expect(matchesAllowList('git status', [])).toBe(false);
  });
});

describe('allowListable', () => {
  it.each([
    'git status',
    'git add -u',
    'git push -u origin main',
    'git log --oneline',
    'git show HEAD~1',
    'rg foo',
    'rg --pretty foo',
    'npm test',
    'npm run build',
    'node build.js',
    'python -m pytest',
    'python3 script.py',
    'find . -name x.ts',
    'tar -xf a.tar',
    'ls -la',
  ])('offers "always allow" for %j', (command) => {
    expect(allowListable(command)).toEqual(parseSimpleCommand(command));
    expect(allowListable(command).ok).toBe(true);
  });

  it.each([
    ['sh -c ls', /shell/],
    ['bash -c ls', /shell/],
    ['bash script.sh', /shell/],
    ['cmd /c dir', /shell/],
    ['powershell ls', /shell/],
    ['xargs rm', /another command/],
    ['env', /another command/],
    ['/usr/bin/env ls', /another command/],
    ['sudo ls', /another command/],
    ['eval ls', /another command/],
    ['timeout 5 ls', /another command/],
    ['npx cowsay', /package/],
    ['npm exec cowsay', /package/],
    ['npm x cowsay', /package/],
    ['pnpm dlx cowsay', /package/],
    ['node -e 1', /code given/],
    ['node --eval=1', /code given/],
    ['node -pe 1', /code given/],
    ['deno eval 1', /code given/],
    ['python -c 1', /code given/],
    ['python3.12 -Bc 1', /code given/],
    ['perl -ne print', /code given/],
    ['ruby -e 1', /code given/],
    ['php -r 1', /code given/],
    ['git -c core.pager=less log', /git/],
    ['GIT.EXE -c core.pager=less log', /git/],
    ['git --config-env=core.pager=X log', /git/],
    ['git --exec-path=. status', /git/],
    ['git config core.hooksPath x', /git/],
    ['git fetch --upload-pack=x origin', /git/],
    ['git push --receive-pack=x origin', /git/],
    ['git rebase --exec ls main', /git/],
    ['git rebase -x ls main', /git/],
    ['git clone -u x https://example.com/r.git', /git/],
    ['git bisect run ls', /git/],
    ['git submodule foreach ls', /git/],
    ['git grep -Ovim foo', /git/],
    ['git diff --output=.git/hooks/pre-commit', /git/],
    ['rg --pre=sh foo', /--pre/],
    ['rg --pre sh foo', /--pre/],
    ['find . -exec ls', /-exec/],
    ['find . -delete', /-delete/],
    ['fd -x ls', /--exec/],
    ['tar --to-command=ls -xf a.tar', /another program/],
  ])('does not offer "always allow" for %j', (command, reason) => {
    const offered = allowListable(command);
    expect(offered.ok).toBe(false);
    if (!offered.ok) expect(offered.reason).toMatch(reason);
  });

  it('refuses what cannot be parsed, with the parser’s reason', () => {
    expect(allowListable('git status; rm x')).toEqual(parseSimpleCommand('git status; rm x'));
  });
});
