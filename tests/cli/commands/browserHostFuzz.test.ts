import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect as connectTcp, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

/**
 * Hostile network input against the built `rpi-workbench serve`: hand-made HTTP and WebSocket frames
 * over raw TCP. Each attack gets a fresh process, which must still answer an authenticated socket after it.
 */

const bin = path.resolve('bin/rpi-workbench.cjs');
let temp: string;
let child: ChildProcess;
let port: number;
let token: string;
let output = '';

beforeAll(() => {
  if (!existsSync('dist/cli/main.cjs')) throw new Error('The CLI is not built: run `npm run build` before these tests (npm test does).');
});

beforeEach(async () => {
  output = '';
  temp = await mkdtemp(path.join(os.tmpdir(), 'rpi-fuzz-'));
  child = spawn(process.execPath, [bin, 'serve', temp], {
    env: { ...process.env, OPENAI_API_KEY: '', RPI_WORKBENCH_CONFIG_DIR: path.join(temp, '.config') },
  });
  const url = await new Promise<URL>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /Open: (\S+)/.exec(output);
      if (match?.[1]) resolve(new URL(match[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  port = Number(url.port);
  token = /token=([\w-]+)/.exec(url.href)?.[1] ?? '';
  await hostAnswers();
});

afterEach(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await rm(temp, { recursive: true, force: true });
});

const ownOrigin = () => `http://127.0.0.1:${port}`;

/** A raw TCP connection to the host that records every byte it answers. */
class RawClient {
  readonly socket: Socket;
  received = Buffer.alloc(0);
  readonly closed: Promise<void>;

  constructor() {
    this.socket = connectTcp(port, '127.0.0.1');
    this.socket.on('error', () => undefined); // the host may reset us; only the host's survival matters
    this.socket.on('data', (data: Buffer) => (this.received = Buffer.concat([this.received, data])));
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  get text(): string {
    return this.received.toString('latin1');
  }

  /** Resolves once the answer satisfies `done`, or after `ms` (whatever arrived by then). */
  async until(done: (client: RawClient) => boolean, ms = 5_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done(this) && Date.now() < deadline && !this.socket.destroyed) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Sends an upgrade request for the socket; resolves once the 101 answer's headers arrived. */
  async upgrade(headers: Record<string, string>, target = `/ws?token=${token}`): Promise<void> {
    this.socket.write(handshake(target, headers));
    await this.until((client) => client.text.includes('\r\n\r\n'));
    expect(this.text.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
    this.received = this.received.subarray(this.received.indexOf('\r\n\r\n') + 4);
  }

  /** The status code of the close frame the host sent, once it arrived (null if none came). */
  async closeCode(): Promise<number | null> {
    await this.until((client) => closeCodeIn(client.received) !== null, 10_000);
    return closeCodeIn(this.received);
  }
}

function handshake(target: string, headers: Record<string, string>): string {
  const lines = [
    `GET ${target} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** One masked client frame, as RFC 6455 section 5.2 lays it out. */
function clientFrame(opcode: number, payload: Buffer, { fin = true, rsv = 0 } = {}): Buffer {
  const first = (fin ? 0x80 : 0) | (rsv << 4) | opcode;
  let header: Buffer;
  if (payload.length < 126) header = Buffer.from([first, 0x80 | payload.length]);
  else if (payload.length < 65_536) {
    header = Buffer.from([first, 0x80 | 126, 0, 0]);
    header.writeUInt16BE(payload.length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  const mask = randomBytes(4);
  const masked = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) masked[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return Buffer.concat([header, mask, masked]);
}

/** Finds the host's close frame (unmasked, opcode 8) among the frames received and reads its code. */
function closeCodeIn(frames: Buffer): number | null {
  let at = 0;
  while (at + 2 <= frames.length) {
    const opcode = (frames[at] ?? 0) & 0x0f;
    let length = (frames[at + 1] ?? 0) & 0x7f;
    let start = at + 2;
    if (length === 126) {
      if (start + 2 > frames.length) return null;
      length = frames.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > frames.length) return null;
      length = Number(frames.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > frames.length) return null;
    if (opcode === 0x8) return length >= 2 ? frames.readUInt16BE(start) : 1005;
    at = start + length;
  }
  return null;
}

/** What a genuine page does: open the socket with the credential and ask for something. */
async function hostAnswers(): Promise<void> {
  expect(child.exitCode, `serve died:\n${output}`).toBeNull();
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { origin: ownOrigin() });
  try {
    const reply = await new Promise<unknown>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ type: 'request', id: 1, channel: 'host:info', payload: {} })));
      socket.once('message', (data) => resolve(JSON.parse(data.toString())));
    });
    expect(reply).toMatchObject({ type: 'response', id: 1, response: { ok: true, value: { kind: 'browser' } } });
  } finally {
    socket.terminate();
  }
}

const authenticated = () => ({ Origin: ownOrigin() });

describe('serve survives hostile connections', () => {
  it('a foreign-Origin upgrade followed by a TCP reset, before and after the refusal arrives', async () => {
    for (let round = 0; round < 20; round++) {
      const early = new RawClient();
      early.socket.write(handshake(`/ws?token=${token}`, { Origin: 'http://evil.example' }));
      early.socket.resetAndDestroy();
      const late = new RawClient();
      late.socket.write(handshake('/ws', { Origin: 'http://evil.example' }));
      await late.until((client) => client.text.includes('\r\n\r\n'));
      expect(late.text).toMatch(/^HTTP\/1\.1 403/);
      late.socket.resetAndDestroy();
      await Promise.all([early.closed, late.closed]);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await hostAnswers();
  });

  it('a reset in the middle of an open socket and of a half-sent request', async () => {
    const open = new RawClient();
    await open.upgrade(authenticated());
    open.socket.write(clientFrame(0x1, Buffer.from('{"type":"request"')).subarray(0, 5));
    open.socket.resetAndDestroy();
    const halfRequest = new RawClient();
    halfRequest.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    halfRequest.socket.resetAndDestroy();
    await Promise.all([open.closed, halfRequest.closed]);
    await hostAnswers();
  });

  it('garbage and malformed HTTP, plain and as an upgrade', async () => {
    const attempts = [
      '\x00\xff\xfe garbage \r\n\r\n',
      `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
      handshake('http://[', authenticated()),
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: -1\r\n\r\n`,
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nOrigin: ${ownOrigin()}\r\n\r\n`,
    ];
    for (const attempt of attempts) {
      const client = new RawClient();
      client.socket.write(attempt, 'latin1');
      await client.until((c) => c.text.includes('\r\n\r\n'), 2_000);
      client.socket.destroy();
      await client.closed;
      expect(child.exitCode, `${JSON.stringify(attempt)} killed serve:\n${output}`).toBeNull();
    }
    await hostAnswers();
  });
});

describe('serve closes bad frames on an authenticated socket with the standard code', () => {
  const cases: { name: string; frames: () => Buffer[]; code: number }[] = [
    { name: 'a reserved opcode (0x3)', frames: () => [clientFrame(0x3, Buffer.from('x'))], code: 1002 },
    { name: 'a reserved RSV bit', frames: () => [clientFrame(0x1, Buffer.from('{}'), { rsv: 0b010 })], code: 1002 },
    { name: 'an unmasked client frame', frames: () => [Buffer.from([0x81, 0x02, 0x7b, 0x7d])], code: 1002 },
    { name: 'a text frame that is not valid UTF-8', frames: () => [clientFrame(0x1, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))], code: 1007 },
    { name: 'a 5 MiB frame', frames: () => [clientFrame(0x1, Buffer.alloc(5 * 1024 * 1024, 0x20))], code: 1009 },
    {
      name: 'a 5 MiB message in 1 MiB fragments',
      frames: () => [0, 1, 2, 3, 4].map((index) => clientFrame(index === 0 ? 0x1 : 0x0, Buffer.alloc(1024 * 1024, 0x20), { fin: index === 4 })),
      code: 1009,
    },
  ];

  for (const { name, frames, code } of cases) {
    it(`${name}: closed with ${code}, and serve keeps serving`, async () => {
      const client = new RawClient();
      await client.upgrade(authenticated());
      for (const frame of frames()) client.socket.write(frame);
      expect(await client.closeCode()).toBe(code);
      client.socket.destroy();
      await client.closed;
      await hostAnswers();
    });
  }
});
