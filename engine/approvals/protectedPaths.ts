const gitReason = 'it is inside git’s own folder';
const hookReason = 'it is a git hook';
const hooksPathReason = 'it is in a folder git takes hooks from (core.hooksPath in the git config)';
const holdsHooksReason = 'it holds a folder git takes hooks from (core.hooksPath in the git config)';
const includedConfigReason = 'it is git configuration the repository includes (include.path), which can make git run programs';
const hookConfigReason = 'it configures git hooks';
const gitFileReason = 'it tells git which programs to run on files (filters, diff and merge drivers)';
const submoduleReason = 'it tells git where to fetch submodules from';
const ciReason = 'it is CI configuration';
const editorReason = 'it is editor configuration';
const agentReason = 'it configures coding agents and the commands and servers they start';
const devContainerReason = 'it is dev container configuration, which runs commands';
const envToolReason = 'it may hold secrets, and direnv or mise runs it when you enter the folder';
const secretReason = 'it may hold secrets';
const keyReason = 'it may hold a private key';

/*
 * Where the list comes from: the file names each tool documents as the place it reads, where the tool
 * acts on its own once the file is in the folder (a CI service on push, an editor or dev container on
 * opening, git on commit or checkout, direnv on `cd`), plus the credential files package managers and
 * cloud tools document. Build definitions run only by a command you start (package.json, Makefile, …)
 * are not here: an allow-listed command is bound to them instead (see commandDefinitions.ts).
 * Left out on purpose: `.editorconfig` (formatting only), Terraform `*.tfvars` (routinely edited
 * configuration), Concourse pipelines (no fixed file name).
 */

/** Folders protected at any depth, for everything inside them and for the name itself. */
const protectedFolders: ReadonlyMap<string, string> = new Map([
  ['.git', gitReason],
  ['.workbench', 'it is the workbench’s own data'],
  // Git hook managers: husky, plain `core.hooksPath=.githooks` setups.
  ['.husky', hookReason],
  ['.githooks', hookReason],
  // CI: GitHub Actions, GitLab, Gitea and Forgejo Actions, Woodpecker, CircleCI, Buildkite, Semaphore,
  // TeamCity (Kotlin DSL), Tekton (Pipelines as Code), Harness, sourcehut builds, Azure Pipelines.
  ['.github', ciReason],
  ['.gitlab', ciReason],
  ['.gitea', ciReason],
  ['.forgejo', ciReason],
  ['.woodpecker', ciReason],
  ['.circleci', ciReason],
  ['.buildkite', ciReason],
  ['.semaphore', ciReason],
  ['.teamcity', ciReason],
  ['.tekton', ciReason],
  ['.harness', ciReason],
  ['.builds', ciReason],
  ['.azure-pipelines', ciReason],
  // Editors: VS Code (tasks, launch, settings, mcp.json), JetBrains (.idea, shared run configurations in
  // .run), Fleet, Zed, Helix (language servers are commands), Visual Studio.
  ['.vscode', editorReason],
  ['.idea', editorReason],
  ['.run', editorReason],
  ['.fleet', editorReason],
  ['.zed', editorReason],
  ['.helix', editorReason],
  ['.vs', editorReason],
  // Coding agents' project settings: Cursor, Claude Code (hooks run commands), Continue.
  ['.cursor', agentReason],
  ['.claude', agentReason],
  ['.continue', agentReason],
  // Dev containers and cloud workspaces: devcontainer.json, Project IDX (.idx/dev.nix).
  ['.devcontainer', devContainerReason],
  ['.idx', devContainerReason],
  // Credentials: OpenSSH, AWS CLI, GnuPG, Docker (config.json), kubectl (config), Azure CLI.
  ['.ssh', secretReason],
  ['.aws', secretReason],
  ['.gnupg', secretReason],
  ['.docker', secretReason],
  ['.kube', secretReason],
  ['.azure', secretReason],
]);

/** File names protected in any folder (compared lower-cased). */
const protectedFiles: ReadonlyMap<string, string> = new Map([
  // Git: attributes select filter/diff/merge programs; .gitmodules holds submodule URLs.
  ['.gitattributes', gitFileReason],
  ['.gitmodules', submoduleReason],
  // Git hook managers: pre-commit, lefthook, overcommit.
  ['.pre-commit-config.yaml', hookConfigReason],
  ['.pre-commit-config.yml', hookConfigReason],
  ['lefthook.yml', hookConfigReason],
  ['lefthook.yaml', hookConfigReason],
  ['.lefthook.yml', hookConfigReason],
  ['.lefthook.yaml', hookConfigReason],
  ['lefthook-local.yml', hookConfigReason],
  ['.overcommit.yml', hookConfigReason],
  // CI services' documented file names.
  ['.gitlab-ci.yml', ciReason],
  ['.woodpecker.yml', ciReason],
  ['.woodpecker.yaml', ciReason],
  ['.travis.yml', ciReason],
  ['azure-pipelines.yml', ciReason],
  ['azure-pipelines.yaml', ciReason],
  ['bitbucket-pipelines.yml', ciReason],
  ['.drone.yml', ciReason],
  ['.drone.yaml', ciReason],
  ['.drone.jsonnet', ciReason],
  ['.drone.star', ciReason],
  ['appveyor.yml', ciReason],
  ['.appveyor.yml', ciReason],
  ['.cirrus.yml', ciReason],
  ['.cirrus.star', ciReason],
  ['buildkite.yml', ciReason],
  ['buildkite.yaml', ciReason],
  ['buildkite.json', ciReason],
  ['codefresh.yml', ciReason],
  ['wercker.yml', ciReason],
  ['buddy.yml', ciReason],
  ['bitrise.yml', ciReason],
  ['.build.yml', ciReason],
  ['buildspec.yml', ciReason],
  ['buildspec.yaml', ciReason],
  ['cloudbuild.yaml', ciReason],
  ['cloudbuild.yml', ciReason],
  ['cloudbuild.json', ciReason],
  // Editors that run a folder's own config: Vim/Neovim 'exrc', Emacs directory variables, Sublime Text.
  ['.exrc', editorReason],
  ['.vimrc', editorReason],
  ['_vimrc', editorReason],
  ['.nvimrc', editorReason],
  ['.nvim.lua', editorReason],
  ['.dir-locals.el', editorReason],
  ['.dir-locals-2.el', editorReason],
  ['.mcp.json', agentReason],
  // Dev containers and cloud workspaces: devcontainer.json, Gitpod, Replit.
  ['.devcontainer.json', devContainerReason],
  ['.gitpod.yml', devContainerReason],
  ['.gitpod.dockerfile', devContainerReason],
  ['.replit', devContainerReason],
  ['replit.nix', devContainerReason],
  // Run on entering the folder: direnv, mise.
  ['.envrc', envToolReason],
  ['mise.toml', envToolReason],
  ['.mise.toml', envToolReason],
  ['mise.local.toml', envToolReason],
  ['.mise.local.toml', envToolReason],
  // Credentials of package managers, git, databases and cloud tools.
  ['.npmrc', secretReason],
  ['.yarnrc', secretReason],
  ['.yarnrc.yml', secretReason],
  ['.pypirc', secretReason],
  ['.netrc', secretReason],
  ['_netrc', secretReason],
  ['.git-credentials', secretReason],
  ['auth.json', secretReason],
  ['.pgpass', secretReason],
  ['.my.cnf', secretReason],
  ['.htpasswd', secretReason],
  ['.boto', secretReason],
  ['.s3cfg', secretReason],
  ['.terraformrc', secretReason],
  ['terraform.rc', secretReason],
  ['settings-security.xml', secretReason],
]);

/**
 * File-name patterns protected in any folder. `.env` files are loaded into programs' environments
 * (NODE_OPTIONS alone can run code), so every `.env` and `.env.*` is protected except templates named
 * `*.example`, `*.sample` or `*.template`: those are committed on purpose, hold no real values, and
 * are routinely updated alongside the code that reads a new setting.
 */
const protectedPatterns: ReadonlyArray<readonly [RegExp, string]> = [
  [/^jenkinsfile(\..+)?$/, ciReason],
  [/\.code-workspace$/, editorReason],
  [/\.sublime-project$/, editorReason],
  [/^\.env(?!.*\.(example|sample|template)$)(\..+)?$/, secretReason],
  [/^\.?(secrets?|credentials?)(\..+)?$/, secretReason],
  [/^(service[-_]?account|client[-_]secret).*\.json$/, secretReason],
  [/\.tfstate(\.backup)?$/, secretReason],
  [/\.kdbx$/, secretReason],
  [/^id_(rsa|dsa|ecdsa|ed25519)(_sk)?(\.pub)?$/, 'it is an SSH key'],
  [/\.(pem|key|p12|pfx|p8|ppk|keystore|jks)$/, keyReason],
];

/**
 * Why a write to this path (relative to the project folder, '/' separators, as resolved) always needs
 * the user's approval; null when it follows the normal policy. `hookFolders` are the folders, relative to
 * the project folder, that the git config names as `core.hooksPath` (see gitHooksFolders): everything in
 * them is protected, and when one is the project folder itself, the files named like git hooks.
 *
 * Names are compared as the file system would open them: case-insensitively, and without what Windows
 * and macOS ignore in a name (trailing dots and spaces, an NTFS `:stream` suffix, invisible code points),
 * so `.GIT/hooks`, `.git./hooks` and `.git::$INDEX_ALLOCATION/hooks` are all a git hook. Backslashes
 * count as separators too.
 */
export function protectedPathReason(relPath: string, hookFolders: readonly string[] = [], includedConfigs: readonly string[] = []): string | null {
  const names = canonicalNames(relPath);
  for (const [index, name] of names.entries()) {
    if (name === '.git' && names[index + 1] === 'hooks') return hookReason;
    const reason = protectedFolders.get(name);
    if (reason !== undefined) return reason;
  }
  if (hookFolders.some((folder) => inHookFolder(names, canonicalNames(folder)))) return hooksPathReason;
  // Moved or deleted whole, a folder above one takes the hooks with it (moved away, edited, moved back).
  if (hookFolders.some((folder) => holdsHookFolder(names, canonicalNames(folder)))) return holdsHooksReason;
  if (includedConfigs.some((file) => sameNames(names, canonicalNames(file)))) return includedConfigReason;
  const fileName = names.at(-1);
  if (fileName === undefined) return null;
  return protectedFiles.get(fileName) ?? protectedPatterns.find(([pattern]) => pattern.test(fileName))?.[1] ?? null;
}

/** The hook names of githooks(5); used when `core.hooksPath` is the project folder itself. */
const gitHookNames: ReadonlySet<string> = new Set([
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg',
  'commit-msg', 'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update',
  'proc-receive', 'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout', 'pre-auto-gc',
  'post-rewrite', 'sendemail-validate', 'fsmonitor-watchman', 'p4-changelist', 'p4-prepare-changelist',
  'p4-post-changelist', 'p4-pre-submit', 'post-index-change',
]);

function holdsHookFolder(names: readonly string[], folder: readonly string[]): boolean {
  return names.length > 0 && names.length < folder.length && names.every((name, index) => folder[index] === name);
}

function sameNames(names: readonly string[], other: readonly string[]): boolean {
  return names.length === other.length && names.every((name, index) => other[index] === name);
}

function inHookFolder(names: readonly string[], folder: readonly string[]): boolean {
  if (folder.length === 0) return names.length === 1 && gitHookNames.has(names[0] ?? '');
  return folder.every((name, index) => names[index] === name);
}

function canonicalNames(relPath: string): string[] {
  return relPath
    .split(/[\\/]/)
    .map(canonicalName)
    .filter((name) => name !== '');
}

function canonicalName(name: string): string {
  const visible = name.normalize('NFC').replace(/\p{Default_Ignorable_Code_Point}/gu, '');
  const withoutStream = visible.split(':')[0] ?? '';
  return withoutStream.replace(/[. ]+$/, '').toLowerCase();
}
