import { describe, expect, it } from 'vitest';
import { isDistinctive, knownSecrets, maskStrings, secretMask } from '../../../engine/secrets/secretMask.js';

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

  it('looks only for distinctive values: not short or plain words, not paths', () => {
    expect(['1', '1234567', 'postgres', 'disabled', 'changeme', '/home/me/.cache/hf/token', '~/.ssh/id_ed25519', 'C:\\keys\\a.pem'].filter(isDistinctive)).toEqual([]);
    expect(['hunter2!', 'Pa55word', 'hunter2-db-pass', 'sk-abcdefgh12345', 'wJalrXUtnFEMIK7MDENG'].every(isDistinctive)).toBe(true);
    const mask = secretMask([{ name: 'FLAG_TOKEN', value: '1' }, { name: 'POSTGRES_PASSWORD', value: 'postgres' }]);
    expect(mask('import postgres from "postgres"; 1')).toBe('import postgres from "postgres"; 1');
  });

  it('hides each line of a multi-line secret, however the lines are numbered or ended', () => {
    const pem = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAAAAAEAAAAzAAAAC3NzaC1lZDI1NTE5AAAA\n-----END OPENSSH PRIVATE KEY-----';
    const mask = secretMask([{ name: 'DEPLOY_KEY', value: pem }]);
    const numbered = pem.split('\n').map((line, index) => `${index + 1}\t${line}`).join('\r\n');
    const masked = mask(numbered);
    expect(masked).not.toContain('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ');
    expect(masked).not.toContain('AAAAAAAAAAEAAAAzAAAAC3NzaC1lZDI1NTE5AAAA');
    expect(masked).toContain('2\t[hidden: DEPLOY_KEY]\r\n3\t[hidden: DEPLOY_KEY]');
  });

  it('hides the pieces of a secret that an output cut left on either side of its note', () => {
    const mask = secretMask([{ name: 'API key', value: 'sk-abcdefgh12345678' }]);
    expect(mask('head sk-abcdefgh\n… 5000 bytes omitted …\n345678 tail')).toBe('head [hidden: API key]\n… 5000 bytes omitted …\n[hidden: API key] tail');
    expect(mask('head sk-ab\n… 5000 bytes omitted …\ntail')).toBe('head sk-ab\n… 5000 bytes omitted …\ntail');
  });

  it('masks every string inside arguments, whatever characters the secret holds', () => {
    const mask = secretMask([{ name: 'DB_PASSWORD', value: 'pa"ss\\word-123' }]);
    expect(maskStrings({ command: 'echo pa"ss\\word-123', nested: [{ text: 'x pa"ss\\word-123' }], count: 3 }, mask)).toEqual({
      command: 'echo [hidden: DB_PASSWORD]',
      nested: [{ text: 'x [hidden: DB_PASSWORD]' }],
      count: 3,
    });
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
