import { describe, expect, it } from 'vitest';
import { isCredentialName, isCredentialValue } from '../../../engine/secrets/credentialShapes.js';

describe('credential shapes', () => {
  it('calls a variable a credential by any part of its name that says so', () => {
    const names = [
      'OPENAI_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'NPM_CONFIG__AUTH', 'npm_config_//registry.npmjs.org/:_authToken',
      'NODE_AUTH_TOKEN', 'PGPASSWORD', 'MYSQL_PWD', 'DB_PASS', 'SENTRY_DSN', 'GH_PAT', 'DOCKER_CREDS', 'SESSION_COOKIE', 'HFTOKEN', 'CLIENTSECRET',
      'GOOGLE_APPLICATION_CREDENTIALS', 'SSH_PASSPHRASE', 'stripe_apikey',
    ];
    expect(names.filter((name) => !isCredentialName(name))).toEqual([]);
  });

  it('keeps ordinary variables, the working folders and the SSH agent socket', () => {
    const names = ['PATH', 'HOME', 'PWD', 'OLDPWD', 'SSH_AUTH_SOCK', 'KEYBOARD', 'XAUTHORITY', 'TOKENIZERS_PARALLELISM', 'PASSENGER_ENV', 'LANG'];
    expect(names.filter(isCredentialName)).toEqual([]);
  });

  it('calls a value a credential when it carries a password or a known token shape, whatever the name', () => {
    const values = [
      'postgres://app:hunter2@db.internal:5432/app',
      'https://user:p%40ss@proxy.example:8080',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nabc',
      'sk-proj-Abc123Def456Ghi789',
      'ghp_0123456789abcdefghijABCDEFGHIJ012345',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
      'glpat-abcdefghij0123456789',
      'xoxb-1234567890-abcdefghijkl',
      'AKIAIOSFODNN7EXAMPLE',
      'AIzaSyA-1234567890abcdefghijklmnopqrstu',
      'npm_abcdefghijklmnopqrstuvwxyz0123456789',
      'hf_abcdefghijklmnopqrstuvwxyz012345',
      'sk_live_abcdefghijklmnop1234',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig',
      'postgresql://db.internal/app?user=app&password=hunter2',
      'jdbc:sqlserver://db;databaseName=app;user=sa;password=hunter2',
      'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=c2VjcmV0a2V5;EndpointSuffix=core.windows.net',
      'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=c2VjcmV0',
      'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
    ];
    expect(values.filter((value) => !isCredentialValue(value))).toEqual([]);
  });

  it('keeps URLs without a password and ordinary values', () => {
    const values = [
      'https://user@example.com/x',
      'http://localhost:11434/v1',
      'en_GB.UTF-8',
      '/usr/bin:/bin',
      'task-runner',
      'sk-short',
      'desk-1234567890abcdefghij',
      'postgresql://db.internal/app?user=app&sslmode=require',
      'https://example.com/search?q=password',
      'DefaultEndpointsProtocol=https;AccountName=acct;EndpointSuffix=core.windows.net',
    ];
    expect(values.filter(isCredentialValue)).toEqual([]);
  });
});
