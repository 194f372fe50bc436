import { describe, expect, it } from 'vitest';
import { PathRefusedError, isInside, lexicalPath, protectedWriteReason } from '../../../engine/workspace/pathRules.js';

describe('lexicalPath', () => {
  const root = '/home/ada/proj';

  it.each([
    ['', ''],
    ['.', ''],
    ['./', ''],
    ['src', 'src'],
    ['src/', 'src'],
    ['./src//app.ts', 'src/app.ts'],
    ['src/../lib/x.ts', 'lib/x.ts'],
    ['src\\win\\path.ts', 'src/win/path.ts'],
    ['a/..', ''],
    ['~notes.txt', '~notes.txt'],
    ['..data/x', '..data/x'],
  ])('normalises %j to %j', (requested, expected) => {
    expect(lexicalPath(requested, root)).toBe(expected);
  });

  it.each([
    ['..', 'it leads outside the project folder'],
    ['../proj_evil', 'it leads outside the project folder'],
    ['src/../../x', 'it leads outside the project folder'],
    ['..\\..\\x', 'it leads outside the project folder'],
    ['/etc/passwd', 'absolute paths are not allowed; give a path relative to the project folder'],
    ['/home/ada/proj_evil/x', 'absolute paths are not allowed; give a path relative to the project folder'],
    ['/home/ada/proj/src/a.ts', 'absolute paths are not allowed; give a path relative to the project folder (here: "src/a.ts")'],
    ['/home/ada/proj', 'absolute paths are not allowed; give a path relative to the project folder (use ".")'],
    ['C:\\Users\\x', 'absolute paths are not allowed; give a path relative to the project folder'],
    ['\\\\server\\share', 'absolute paths are not allowed; give a path relative to the project folder'],
    ['~/.ssh/id_rsa', 'home-relative paths (~) are not allowed; paths are relative to the project folder'],
    ['a\0b', 'it contains a NUL character'],
  ])('refuses %j: %s', (requested, reason) => {
    const refusal = (() => {
      try {
        lexicalPath(requested, root);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toBeInstanceOf(PathRefusedError);
    expect(refusal).toMatchObject({ requested, reason, message: `Refused path "${requested}": ${reason}.` });
  });
});

describe('isInside', () => {
  it('accepts the root and paths below it, never a sibling that shares its prefix', () => {
    expect(isInside('/p/proj', '/p/proj')).toBe(true);
    expect(isInside('/p/proj', '/p/proj/a/b')).toBe(true);
    expect(isInside('/p/proj', '/p/proj_evil')).toBe(false);
    expect(isInside('/p/proj', '/p/proj_evil/x')).toBe(false);
    expect(isInside('/p/proj', '/p')).toBe(false);
  });
});

describe('protectedWriteReason', () => {
  it('protects the root, .workbench/ at the top and .git/ anywhere, in any letter case', () => {
    expect(protectedWriteReason('')).toBe('it is the project folder itself');
    expect(protectedWriteReason('.workbench/plan.md')).toMatch(/^\.workbench\//);
    expect(protectedWriteReason('.git/config')).toMatch(/^\.git\//);
    expect(protectedWriteReason('.GIT/hooks/x')).toMatch(/^\.git\//);
    expect(protectedWriteReason('vendor/lib/.git/config')).toMatch(/^\.git\//);
    expect(protectedWriteReason('src/.gitignore')).toBeNull();
    expect(protectedWriteReason('docs/.workbench/notes.md')).toBeNull();
  });
});
