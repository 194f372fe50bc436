import { describe, expect, it } from 'vitest';
import { allowListable } from '../../../engine/approvals/commandAllowList.js';
import { commandDefinitions } from '../../../engine/approvals/commandDefinitions.js';

const words = (command: string) => command.split(' ');

describe('commandDefinitions', () => {
  it.each([
    ['npm test', '', ['package.json']],
    ['npm run build', 'packages/app', ['package.json', 'packages/app/package.json', 'packages/package.json']],
    ['yarn lint', '', ['package.json']],
    ['bun test', '', ['bunfig.toml', 'package.json']],
    ['pnpm install', '', ['.pnpmfile.cjs', 'package.json', 'pnpm-workspace.yaml']],
    ['make check', '', ['GNUmakefile', 'Makefile', 'makefile']],
    ['make', 'sub', ['sub/GNUmakefile', 'sub/Makefile', 'sub/makefile']],
    ['just test', '', ['.justfile', 'Justfile', 'justfile']],
    ['cargo test', '', ['.cargo/config', '.cargo/config.toml', 'Cargo.toml', 'build.rs', 'rust-toolchain', 'rust-toolchain.toml']],
    ['go test ./...', '', ['go.mod', 'go.work']],
    ['pytest', '', ['.pytest.ini', 'conftest.py', 'pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini']],
    ['python -m pytest', '', ['.pytest.ini', 'conftest.py', 'pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini']],
    ['python3 -m tools.gen', '', ['tools/__init__.py', 'tools/gen.py', 'tools/gen/__init__.py', 'tools/gen/__main__.py']],
    ['./gradlew test', '', ['build.gradle', 'build.gradle.kts', 'gradle.properties', 'gradle/wrapper/gradle-wrapper.properties', 'gradlew', 'settings.gradle', 'settings.gradle.kts']],
    ['mvn -q test', '', ['.mvn/extensions.xml', '.mvn/jvm.config', '.mvn/maven.config', '.mvn/wrapper/maven-wrapper.properties', 'mvnw', 'pom.xml']],
    ['rake spec', '', ['Rakefile', 'Rakefile.rb', 'rakefile', 'rakefile.rb']],
    ['composer test', '', ['composer.json']],
    ['tox', '', ['pyproject.toml', 'setup.cfg', 'tox.ini']],
    ['nox', '', ['noxfile.py']],
    ['./scripts/check.sh --fast', '', ['scripts/check.sh']],
    ['scripts/check', 'sub', ['sub/scripts/check']],
    ['node tools/gen.js out.txt', '', ['tools/gen.js']],
    ['node --test', '', []],
    ['python manage.py test', 'web', ['web/manage.py']],
    ['deno run main.ts', '', ['deno.json', 'deno.jsonc', 'main.ts']],
    ['git status', '', []],
    ['ls -la', '', []],
    ['cat ../../etc/passwd', '', []],
  ])('%j in %j is defined by %j', (command, cwd, files) => {
    expect(commandDefinitions(words(command), cwd)).toEqual(files);
  });

  it('never names a file outside the project folder', () => {
    expect(commandDefinitions(['../../outside.sh'], '')).toEqual([]);
    expect(commandDefinitions(['node', '../x.js'], 'a')).toEqual(['x.js']);
  });
});

describe('runners pointed at other files or folders are never allow-listed', () => {
  it.each([
    'npm --prefix sub test',
    'npm test -w packages/app',
    'npm test --workspaces',
    'pnpm -r test',
    'pnpm --filter app test',
    'pnpm -C sub test',
    'yarn --cwd sub test',
    'yarn workspace app test',
    'make -f other.mk',
    'make -C sub check',
    'make --directory=sub',
    'just --justfile other test',
    'task -t other.yml',
    'cargo test --manifest-path sub/Cargo.toml',
    'cargo --config build.rustflags=x test',
    'go -C sub test',
    'go generate ./...',
    'pytest -c other.ini',
    'pytest -p evil_plugin',
    'python -m pytest -p evil_plugin',
    'gradle -b other.gradle test',
    'mvn -f other/pom.xml test',
    'rake -f Other.rake',
  ])('%j asks every time', (command) => {
    expect(allowListable(command).ok).toBe(false);
  });

  it.each(['npm test', 'npm run build', 'make check', 'cargo test', 'go test ./...', 'pytest -q', 'python -m pytest -q'])('%j can still be allowed', (command) => {
    expect(allowListable(command).ok).toBe(true);
  });

  // An allowance is bound to the script an interpreter runs: the command must name it, first, so that is sure.
  it.each(['node -r ./setup.cjs app.js', 'node --import tsx x.ts', 'python3 -W ignore app.py', 'node .', 'node app', 'python3 -m', 'ruby -Ilib x.rb'])(
    '%j asks every time: which code it runs cannot be bound to a file',
    (command) => {
      expect(allowListable(command)).toMatchObject({ ok: false, reason: expect.stringMatching(/^Which code it runs cannot be bound to a file/) });
    },
  );

  it.each(['node tools/gen.js', 'python3 tools/gen.py --out x', 'python -m tools.gen', 'ruby script.rb', 'node'])('%j can be allowed, bound to its script', (command) => {
    expect(allowListable(command).ok).toBe(true);
  });
});
