import path from 'node:path';

interface Runner {
  /** Matched against the program's file name, lower-cased, without .exe/.cmd/.bat/.com/.ps1. */
  readonly program: RegExp;
  /** Files, relative to a folder, that say what the runner runs there. */
  readonly files: readonly string[];
  /** Also in every folder above the command's, up to the project folder (the runner searches upward). */
  readonly upward?: boolean;
}

const pythonTestFiles = ['conftest.py', 'pytest.ini', '.pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini'];

/**
 * The task runners and build tools whose commands run code the project defines, and the files that
 * define it, as each tool documents where it looks. Options that point a runner at other files or
 * folders (`make -f`, `npm --prefix`, `-w`, `cargo --manifest-path`, …) are refused from the allow-list
 * in commandAllowList.ts, so an allowance here always means these files.
 */
const runners: readonly Runner[] = [
  { program: /^(npm|pnpm|yarn|bun)$/, files: ['package.json'], upward: true },
  { program: /^pnpm$/, files: ['.pnpmfile.cjs', 'pnpm-workspace.yaml'], upward: true },
  { program: /^bun$/, files: ['bunfig.toml'], upward: true },
  { program: /^deno$/, files: ['deno.json', 'deno.jsonc'], upward: true },
  { program: /^(make|gmake)$/, files: ['GNUmakefile', 'makefile', 'Makefile'] },
  { program: /^just$/, files: ['justfile', 'Justfile', '.justfile'], upward: true },
  {
    program: /^(task|go-task)$/,
    files: ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml', 'Taskfile.dist.yml', 'Taskfile.dist.yaml'],
    upward: true,
  },
  // rust-toolchain(.toml) may name a toolchain by path: rustup then runs that folder's cargo.
  { program: /^cargo$/, files: ['Cargo.toml', 'build.rs', '.cargo/config.toml', '.cargo/config', 'rust-toolchain.toml', 'rust-toolchain'], upward: true },
  { program: /^rustc$/, files: ['rust-toolchain.toml', 'rust-toolchain'], upward: true },
  { program: /^go$/, files: ['go.mod', 'go.work'], upward: true },
  { program: /^(pytest|py\.test)$/, files: pythonTestFiles, upward: true },
  { program: /^tox$/, files: ['tox.ini', 'pyproject.toml', 'setup.cfg'] },
  { program: /^nox$/, files: ['noxfile.py'] },
  { program: /^(poetry|uv|pdm|hatch)$/, files: ['pyproject.toml'], upward: true },
  {
    program: /^(gradle|gradlew)$/,
    files: ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'gradle.properties', 'gradlew', 'gradle/wrapper/gradle-wrapper.properties'],
    upward: true,
  },
  {
    program: /^(mvn|mvnw)$/,
    files: ['pom.xml', 'mvnw', '.mvn/wrapper/maven-wrapper.properties', '.mvn/extensions.xml', '.mvn/maven.config', '.mvn/jvm.config'],
    upward: true,
  },
  { program: /^rake$/, files: ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb'], upward: true },
  { program: /^bundle$/, files: ['Gemfile'], upward: true },
  { program: /^composer$/, files: ['composer.json'], upward: true },
];

/** Interpreters whose first argument that is not an option is the script they run. */
const interpreters = /^(node|nodejs|bun|deno|tsx|ts-node|python[\d.]*|py|ruby|perl|php|lua|rscript)$/;

/**
 * The files, relative to the project folder ('/' separators), that define what the command `words` runs
 * when started in folder `cwd` (relative to the project folder, '' for itself): a task runner's
 * definitions (package.json for `npm test`, the Makefile for `make`, …), a script named as the program
 * (`./build.sh`), or the script an interpreter is given (`node tools/gen.js`, `python -m tool`).
 * Empty when the command runs nothing the project defines (`git status`, `ls`).
 */
export function commandDefinitions(words: readonly string[], cwd: string): string[] {
  const [first = '', ...args] = words;
  const program = programName(first);
  const found = new Set<string>();
  const add = (relative: string) => {
    const joined = path.posix.normalize(path.posix.join(cwd, relative));
    if (joined !== '..' && !joined.startsWith('../') && !path.posix.isAbsolute(joined)) found.add(joined === '.' ? '' : joined);
  };
  if (first.includes('/')) add(first);
  for (const runner of runners) {
    if (!runner.program.test(program)) continue;
    for (const folder of runner.upward ? foldersUp(cwd) : ['']) {
      for (const file of runner.files) add(path.posix.join(folder, file));
    }
  }
  if (interpreters.test(program)) {
    const moduleIndex = args.indexOf('-m');
    const moduleName = moduleIndex === -1 ? undefined : args[moduleIndex + 1];
    if (moduleName === 'pytest') {
      for (const folder of foldersUp(cwd)) for (const file of pythonTestFiles) add(path.posix.join(folder, file));
    } else if (moduleName !== undefined) {
      const parts = moduleName.split('.');
      const modulePath = parts.join('/');
      add(`${modulePath}.py`);
      add(`${modulePath}/__main__.py`);
      // Importing a module runs every package's __init__.py on the way to it, its own included.
      for (let depth = 1; depth <= parts.length; depth += 1) add(`${parts.slice(0, depth).join('/')}/__init__.py`);
    } else {
      const script = args.find((arg, index) => !arg.startsWith('-') && !(index === 0 && program === 'deno' && arg === 'run'));
      // bun and deno also take subcommands (`bun test`); only a path is a script there.
      const isScript = script !== undefined && (!/^(bun|deno)$/.test(program) || /[./]/.test(script));
      if (isScript) add(script);
    }
  }
  return [...found].filter((file) => file !== '').sort();
}

/** '', then '..', '../..', … from `cwd` up to the project folder, as paths relative to `cwd`. */
function foldersUp(cwd: string): string[] {
  const depth = cwd === '' ? 0 : cwd.split('/').length;
  return Array.from({ length: depth + 1 }, (_, index) => (index === 0 ? '' : Array.from({ length: index }, () => '..').join('/')));
}

function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1).toLowerCase();
  return base.replace(/\.(exe|cmd|bat|com|ps1)$/, '');
}
