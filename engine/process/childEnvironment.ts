const credentialParts = new Set(['KEY', 'APIKEY', 'TOKEN', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PWD', 'PASSPHRASE', 'CREDENTIAL', 'CREDENTIALS']);
const credentialFragments = ['PASSWORD', 'SECRET'];

/**
 * The environment for commands the model runs: `env` without anything that looks like a credential.
 *
 * A command can print its environment (`env`, `printenv`, a failing script's debug dump) straight into
 * a result the model reads and the tool log keeps on disk, and the model could pass it on anywhere. So a
 * variable is dropped by name when a part of its name says it holds a credential — OPENAI_API_KEY (the
 * workbench's own key), ANTHROPIC_API_KEY, AZURE_OPENAI_API_KEY, GITHUB_TOKEN, NPM_TOKEN,
 * AWS_SECRET_ACCESS_KEY, MYSQL_PWD, and PASSWORD or SECRET anywhere (PGPASSWORD) — and by value when
 * its value contains one of `secrets` (the workbench's own keys), which catches a key copied into an
 * innocently named variable or a URL. PWD itself (the working folder) is kept. Returns a fresh object
 * holding strings only.
 */
export function childEnvironment(env: Readonly<Record<string, string | undefined>>, secrets: readonly string[]): Record<string, string> {
  const known = secrets.filter((secret) => secret !== '');
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || looksLikeCredential(name)) continue;
    if (known.some((secret) => value.includes(secret))) continue;
    kept[name] = value;
  }
  return kept;
}

function looksLikeCredential(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper === 'PWD') return false;
  if (credentialFragments.some((fragment) => upper.includes(fragment))) return true;
  return upper.split(/[_.-]/).some((part) => credentialParts.has(part));
}
