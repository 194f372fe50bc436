/**
 * What a credential looks like, by the name of the variable that holds it and by its value. Used to keep
 * credentials out of what commands inherit and out of the engine's own process, so it errs on the side
 * of calling a variable a credential: a command that misses one can be given it by the user, a leaked
 * one cannot be taken back.
 */

/** Name parts (split at `_`, `.`, `-`, `/`, `:`) that mark a credential: GITHUB_TOKEN, NPM_CONFIG__AUTH, npm's `//host/:_authToken`. */
const credentialParts = new Set([
  'KEY', 'APIKEY', 'ACCESSKEY', 'SECRETKEY', 'PRIVATEKEY', 'TOKEN', 'AUTHTOKEN', 'ACCESSTOKEN', 'AUTH', 'SECRET', 'SECRETS',
  'PASSWORD', 'PASSWD', 'PWD', 'PASS', 'PASSPHRASE', 'CREDENTIAL', 'CREDENTIALS', 'CREDS', 'COOKIE', 'DSN', 'PAT',
]);
/** Fragments that mark a credential anywhere in a name: PGPASSWORD, CLIENTSECRET, HFTOKEN. */
const credentialFragments = ['PASSWORD', 'PASSWD', 'SECRET', 'TOKEN', 'APIKEY', 'CREDENTIAL', 'PRIVATEKEY'];
/** Names that match the rules above but hold no credential: the working folders and the SSH agent's socket path. */
const notCredentials = new Set(['PWD', 'OLDPWD', 'SSH_AUTH_SOCK', 'TOKENIZERS_PARALLELISM']);

export function isCredentialName(name: string): boolean {
  const upper = name.toUpperCase();
  if (notCredentials.has(upper)) return false;
  if (credentialFragments.some((fragment) => upper.includes(fragment))) return true;
  return upper.split(/[_.\-/:]/).some((part) => credentialParts.has(part));
}

/** A URL with a password in it; the password is the first group. */
export const urlWithPassword = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:([^\s/@]+)@/i;

/**
 * Values that are credentials whatever their variable is called: a URL with a password in it
 * (DATABASE_URL=postgres://app:pw@db/app), or in its query (libpq's `?password=`, JDBC's `;password=`),
 * a connection string with a key (Azure storage's `AccountKey=`, Service Bus's `SharedAccessKey=`), a
 * Slack webhook URL (its path is the secret), a private key, and the documented prefixes of common API
 * tokens (OpenAI and Anthropic `sk-`, GitHub, GitLab, Slack, AWS access key ids, Google API keys, npm,
 * Hugging Face, Stripe) and JSON web tokens.
 */
const credentialValues: readonly RegExp[] = [
  urlWithPassword,
  /[?&;](?:password|passwd|pwd|sslpassword|access_token|token|secret)=[^&;\s]/i,
  /(?:^|;)\s*(?:AccountKey|SharedAccessKey|SharedAccessSignature|Password|Pwd)=[^;\s]/i,
  /\bhooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{10,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\bsk-[A-Za-z0-9_-]{16,}/,
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/,
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{35}/,
  /\bnpm_[A-Za-z0-9]{36}/,
  /\bhf_[A-Za-z0-9]{30,}/,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./,
];

export function isCredentialValue(value: string): boolean {
  return credentialValues.some((shape) => shape.test(value));
}

/** Whether an environment variable holds a credential, by its name or by its value (PWD is a folder, whatever its name looks like). */
export function isCredentialVariable(name: string, value: string): boolean {
  if (notCredentials.has(name.toUpperCase())) return false;
  return isCredentialName(name) || isCredentialValue(value);
}
