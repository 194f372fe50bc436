import { describe, expect, it } from 'vitest';
import { knownSecrets, secretMask } from '../../../engine/secrets/secretMask.js';

describe('secretMask', () => {
  it('hides every occurrence of every known value by the name it came from', () => {
    const mask = secretMask([
      { name: 'API key', value: 'sk-abcdefgh12345' },
      { name: 'GITHUB_TOKEN', value: 'ghp_tokentokentoken' },
    ]);
    expect(mask('a sk-abcdefgh12345 b sk-abcdefgh12345 c ghp_tokentokentoken')).toBe('a [hidden: API key] b [hidden: API key] c [hidden: GITHUB_TOKEN]');
  });

  it('replaces the longest value first, so a URL holding a password hides as the URL', () => {
    const mask = secretMask(knownSecrets({ DATABASE_URL: 'postgres://app:hunter2-pass@db/app' }, null));
    expect(mask('url postgres://app:hunter2-pass@db/app; alone hunter2-pass')).toBe('url [hidden: DATABASE_URL]; alone [hidden: DATABASE_URL]');
  });

  it('leaves values shorter than 8 characters alone, and text without secrets unchanged', () => {
    const mask = secretMask([{ name: 'FLAG_TOKEN', value: '1' }, { name: 'PIN_PASSWORD', value: '1234567' }]);
    expect(mask('1 1234567 and 12345678')).toBe('1 1234567 and 12345678');
  });

  it('knows the API key and each credential of the environment, by name or by value, and nothing else', () => {
    const secrets = knownSecrets({ PATH: '/usr/bin', GITHUB_TOKEN: 'ghp_x', PROXY: 'http://u:pw-12345678@proxy:3128', EMPTY: undefined }, 'sk-the-key-123');
    expect(secrets).toEqual([
      { name: 'API key', value: 'sk-the-key-123' },
      { name: 'GITHUB_TOKEN', value: 'ghp_x' },
      { name: 'PROXY', value: 'http://u:pw-12345678@proxy:3128' },
      { name: 'PROXY', value: 'pw-12345678' },
    ]);
  });
});
