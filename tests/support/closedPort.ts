import { createServer, type AddressInfo } from 'node:net';

/** A port nothing listens on: taken from the OS, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An OpenAI-style base URL on a port nothing listens on. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}/v1`;
}
