/**
 * Whether the base URL is a server on this machine or a private network (localhost, 127.x, ::1, 10.x,
 * 172.16–31.x, 192.168.x, link-local, `*.local`, `*.localhost`, Docker's host name). A model served there
 * runs on the user's own hardware, whatever it is named: `deepseek-r1:14b` in Ollama is not DeepSeek's API.
 */
export function isLocalServer(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl.trim()).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === 'host.docker.internal') return true;
  if (host === '::1' || host === '::' || /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return true;
  const octets = host.split('.').map(Number);
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet) || octet < 0 || octet > 255)) return false;
  const [a = 0, b = 0] = octets;
  return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}
