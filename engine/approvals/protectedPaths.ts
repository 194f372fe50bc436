const gitReason = 'it is inside git’s own folder';
const hookReason = 'it is a git hook';
const ciReason = 'it is CI configuration';
const editorReason = 'it is editor configuration';
const secretReason = 'it may hold secrets';
const keyReason = 'it may hold a private key';

/** Folders protected at any depth, for everything inside them and for the name itself. */
const protectedFolders: ReadonlyMap<string, string> = new Map([
  ['.git', gitReason],
  ['.workbench', 'it is the workbench’s own data'],
  ['.vscode', editorReason],
  ['.idea', editorReason],
  ['.fleet', editorReason],
  ['.zed', editorReason],
  ['.devcontainer', 'it is dev container configuration, which runs commands'],
  ['.github', ciReason],
  ['.gitlab', ciReason],
  ['.circleci', ciReason],
  ['.buildkite', ciReason],
  ['.husky', hookReason],
  ['.githooks', hookReason],
  ['.ssh', secretReason],
  ['.aws', secretReason],
  ['.gnupg', secretReason],
]);

/** File names protected in any folder. */
const protectedFiles: ReadonlyMap<string, string> = new Map([
  ['.gitlab-ci.yml', ciReason],
  ['.travis.yml', ciReason],
  ['azure-pipelines.yml', ciReason],
  ['azure-pipelines.yaml', ciReason],
  ['jenkinsfile', ciReason],
  ['bitbucket-pipelines.yml', ciReason],
  ['.drone.yml', ciReason],
  ['appveyor.yml', ciReason],
  ['.appveyor.yml', ciReason],
  ['.pre-commit-config.yaml', 'it configures git hooks'],
  ['lefthook.yml', 'it configures git hooks'],
  ['.lefthook.yml', 'it configures git hooks'],
  ['.devcontainer.json', 'it is dev container configuration, which runs commands'],
  ['.envrc', 'it may hold secrets, and direnv runs it when you enter the folder'],
  ['.npmrc', secretReason],
  ['.yarnrc', secretReason],
  ['.yarnrc.yml', secretReason],
  ['.pypirc', secretReason],
  ['.netrc', secretReason],
  ['.git-credentials', secretReason],
]);

/**
 * File-name patterns protected in any folder. `.env` files are loaded into programs' environments
 * (NODE_OPTIONS alone can run code), so every `.env` and `.env.*` is protected except templates named
 * `*.example`, `*.sample` or `*.template`: those are committed on purpose, hold no real values, and
 * are routinely updated alongside the code that reads a new setting.
 */
const protectedPatterns: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\.env(?!.*\.(example|sample|template)$)(\..+)?$/, secretReason],
  [/^(secrets?|credentials?)(\..+)?$/, secretReason],
  [/^id_(rsa|dsa|ecdsa|ed25519)(_sk)?(\.pub)?$/, 'it is an SSH key'],
  [/\.(pem|key|p12|pfx|keystore|jks)$/, keyReason],
];

/**
 * Why a write to this path (relative to the project folder, '/' separators, as resolved) always needs
 * the user's approval; null when it follows the normal policy.
 *
 * Names are compared as the file system would open them: case-insensitively, and without what Windows
 * and macOS ignore in a name (trailing dots and spaces, an NTFS `:stream` suffix, invisible code points),
 * so `.GIT/hooks`, `.git./hooks` and `.git::$INDEX_ALLOCATION/hooks` are all a git hook. Backslashes
 * count as separators too.
 */
export function protectedPathReason(relPath: string): string | null {
  const names = relPath
    .split(/[\\/]/)
    .map(canonicalName)
    .filter((name) => name !== '');
  for (const [index, name] of names.entries()) {
    if (name === '.git' && names[index + 1] === 'hooks') return hookReason;
    const reason = protectedFolders.get(name);
    if (reason !== undefined) return reason;
  }
  const fileName = names.at(-1);
  if (fileName === undefined) return null;
  return protectedFiles.get(fileName) ?? protectedPatterns.find(([pattern]) => pattern.test(fileName))?.[1] ?? null;
}

function canonicalName(name: string): string {
  const visible = name.normalize('NFC').replace(/\p{Default_Ignorable_Code_Point}/gu, '');
  const withoutStream = visible.split(':')[0] ?? '';
  return withoutStream.replace(/[. ]+$/, '').toLowerCase();
}
