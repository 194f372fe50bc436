import { describe, expect, it } from 'vitest';
import { childEnvironment } from '../../../engine/secrets/childEnvironment.js';

describe('childEnvironment', () => {
  it('keeps ordinary variables such as PATH, HOME, LANG and PWD', () => {
    const env = { PATH: '/usr/bin:/bin', HOME: '/home/me', LANG: 'en_GB.UTF-8', PWD: '/work', TERM: 'xterm', TOKENIZERS_PARALLELISM: 'false', KEYBOARD: 'uk' };
    expect(childEnvironment(env, [])).toEqual(env);
  });

  it('drops variables whose names say they hold a credential', () => {
    const credentials = [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'AZURE_OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'npm_token',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_ACCESS_KEY_ID',
      'CLIENT_SECRET',
      'PGPASSWORD',
      'DB_PASSWD',
      'MYSQL_PWD',
      'SSH_PASSPHRASE',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'STRIPE_APIKEY',
    ];
    const env = Object.fromEntries([...credentials.map((name) => [name, 'value']), ['SAFE', 'ok']]);
    expect(childEnvironment(env, [])).toEqual({ SAFE: 'ok' });
  });

  it('drops any variable whose value contains one of the secrets, whatever its name', () => {
    const env = { PROXY: 'https://user:sk-live-1@proxy', COPY: 'sk-live-1', OTHER: 'sk-live-', SAFE: 'ok' };
    expect(childEnvironment(env, ['sk-live-1'])).toEqual({ OTHER: 'sk-live-', SAFE: 'ok' });
  });

  it('looks for a secret inside other values only when it is distinctive: a plain default password keeps PATH', () => {
    const env = { PATH: '/usr/lib/postgresql/16/bin:/usr/bin', POSTGRES_PASSWORD: 'postgres', PWD: '/work/sk-proj-Abc123Def456Ghi789' };
    expect(childEnvironment(env, ['postgres'])).toEqual({ PATH: env.PATH, PWD: env.PWD });
  });

  it('ignores empty secrets, which would otherwise match every value', () => {
    expect(childEnvironment({ SAFE: 'ok' }, [''])).toEqual({ SAFE: 'ok' });
  });

  it('returns a fresh object of strings only', () => {
    const env: Record<string, string | undefined> = { SAFE: 'ok', UNSET: undefined };
    const child = childEnvironment(env, []);
    expect(child).toEqual({ SAFE: 'ok' });
    expect(Object.keys(child)).toEqual(['SAFE']);
    child.SAFE = 'changed';
    expect(env.SAFE).toBe('ok');
  });
});
