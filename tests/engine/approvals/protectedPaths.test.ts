import { describe, expect, it } from 'vitest';
import { protectedPathReason } from '../../../engine/approvals/protectedPaths.js';

const git = 'it is inside git’s own folder';
const hook = 'it is a git hook';
const hooksConfig = 'it configures git hooks';
const ci = 'it is CI configuration';
const editor = 'it is editor configuration';
const devContainer = 'it is dev container configuration, which runs commands';
const secrets = 'it may hold secrets';
const privateKey = 'it may hold a private key';
const sshKey = 'it is an SSH key';

describe('protectedPathReason', () => {
  it.each([
    ['.git', git],
    ['.git/config', git],
    ['sub/.git', git],
    ['vendor/lib/.git/HEAD', git],
    ['.git/hooks/pre-commit', hook],
    ['.GIT/HOOKS/pre-push', hook],
    ['vendor/lib/.git/hooks/post-checkout', hook],
    ['.git./hooks/pre-commit', hook],
    ['.git /hooks/pre-commit', hook],
    ['.git::$INDEX_ALLOCATION/hooks/pre-commit', hook],
    ['.g\u200cit/config', git],
    ['src\\.git\\hooks\\pre-commit', hook],
    ['./.git/config', git],
    ['.workbench/plan.md', 'it is the workbench’s own data'],
    ['.Workbench/runs/1.json', 'it is the workbench’s own data'],
    ['.vscode/settings.json', editor],
    ['packages/app/.vscode/tasks.json', editor],
    ['.idea/workspace.xml', editor],
    ['.devcontainer/devcontainer.json', devContainer],
    ['.devcontainer.json', devContainer],
    ['.github/workflows/ci.yml', ci],
    ['.gitlab-ci.yml', ci],
    ['.gitlab/ci/build.yml', ci],
    ['.circleci/config.yml', ci],
    ['.buildkite/pipeline.yml', ci],
    ['azure-pipelines.yml', ci],
    ['Jenkinsfile', ci],
    ['services/api/Jenkinsfile', ci],
    ['.travis.yml', ci],
    ['bitbucket-pipelines.yml', ci],
    ['.husky/pre-commit', hook],
    ['.githooks/pre-push', hook],
    ['.pre-commit-config.yaml', hooksConfig],
    ['lefthook.yml', hooksConfig],
    ['.env', secrets],
    ['.ENV', secrets],
    ['.env.local', secrets],
    ['.env.production', secrets],
    ['.env.test', secrets],
    ['apps/web/.env', secrets],
    ['.envrc', 'it may hold secrets, and direnv runs it when you enter the folder'],
    ['.npmrc', secrets],
    ['.yarnrc', secrets],
    ['.yarnrc.yml', secrets],
    ['.pypirc', secrets],
    ['.netrc', secrets],
    ['.git-credentials', secrets],
    ['.ssh/config', secrets],
    ['.aws/credentials', secrets],
    ['secrets.yaml', secrets],
    ['config/credentials.json', secrets],
    ['secrets', secrets],
    ['id_rsa', sshKey],
    ['keys/id_ed25519.pub', sshKey],
    ['id_ecdsa', sshKey],
    ['certs/server.pem', privateKey],
    ['server.KEY', privateKey],
    ['store.p12', privateKey],
    ['cert.pfx', privateKey],
    ['android/release.keystore', privateKey],
    ['app.jks', privateKey],
  ])('always asks before writing %j: %s', (relPath, reason) => {
    expect(protectedPathReason(relPath)).toBe(reason);
  });

  it('gives the outermost folder’s reason when several apply', () => {
    expect(protectedPathReason('.github/.env')).toBe(ci);
  });

  it.each([
    '',
    '.',
    'README.md',
    'src/environment.ts',
    'src/env.ts',
    'my.env.ts',
    '.environment',
    '.env.example',
    '.env.sample',
    '.env.template',
    '.env.local.example',
    '.gitignore',
    '.gitattributes',
    '.github.md',
    'docs/github-actions.md',
    'src/git/status.ts',
    'hooks/pre-commit',
    'src/keys.ts',
    'src/keyboard.ts',
    'src/secretsManager.ts',
    'docs/credentials-guide.md',
    'id_rsa_rotation.md',
    'src/vscode/extension.ts',
  ])('leaves %j to the normal policy', (relPath) => {
    expect(protectedPathReason(relPath)).toBeNull();
  });
});
