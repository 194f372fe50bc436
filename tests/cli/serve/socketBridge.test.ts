import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { bridgeSocket, type SocketBridgeOptions } from '../../../cli/serve/socketBridge.js';
import type { SocketServerMessage } from '../../../engine/contract/index.js';
import { EventBus } from '../../../engine/workbench/eventBus.js';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * A socket server whose connections are bridged with `subscribe`, and one client connected to it.
 * The server subscribes before it completes the handshake, so the client's 'open' comes after.
 */
async function connectedPair(
  subscribe: SocketBridgeOptions['subscribe'],
  { dispatch = async () => ({ ok: true, value: null }), limits, autoPong = true }: Partial<Pick<SocketBridgeOptions, 'dispatch' | 'limits'>> & { autoPong?: boolean } = {},
) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const serverSideClosed = new Promise<void>((resolve) =>
    server.on('connection', (socket) => {
      bridgeSocket({ socket, dispatch, subscribe, ...(limits ? { limits } : {}) });
      socket.on('close', () => resolve());
    }),
  );
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { autoPong });
  const received: SocketServerMessage[] = [];
  client.on('message', (data) => received.push(JSON.parse(data.toString()) as SocketServerMessage));
  await new Promise((resolve) => client.once('open', resolve));
  return { client, received, serverSideClosed };
}

describe('bridgeSocket', () => {
  it('forwards every engine event to the page in order, with its seq', async () => {
    const bus = new EventBus();
    const { client, received } = await connectedPair((listener) => bus.subscribe(listener));
    bus.emit({ type: 'warning', runId: null, message: 'first' });
    bus.emit({ type: 'run-finished', finishedAt: 2_000, runId: 'r1', status: 'done' });
    await new Promise<void>((resolve) => client.on('message', () => received.length === 2 && resolve()));
    expect(received).toEqual([
      { type: 'event', event: { type: 'warning', runId: null, message: 'first', seq: 1 } },
      { type: 'event', event: { type: 'run-finished', finishedAt: 2_000, runId: 'r1', status: 'done', seq: 2 } },
    ]);
    client.close();
  });

  it('stops listening to the engine when the page goes away', async () => {
    const bus = new EventBus();
    let listening = 0;
    const { client, serverSideClosed } = await connectedPair((listener) => {
      listening += 1;
      const off = bus.subscribe(listener);
      return () => {
        listening -= 1;
        off();
      };
    });
    expect(listening).toBe(1);
    client.close();
    await serverSideClosed;
    expect(listening).toBe(0);
  });

  it('closes the socket of a page that stops reading, instead of queueing for it without bound', async () => {
    const bus = new EventBus();
    const { client, serverSideClosed } = await connectedPair((listener) => bus.subscribe(listener), { limits: { maxBufferedBytes: 1024 * 1024 } });
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    client.pause(); // a frozen tab, a stalled tunnel: nothing is read from here on
    const text = 'x'.repeat(64 * 1024);
    // 32 MiB: past what the kernel's buffers hold, so the rest waits in the host's own queue.
    for (let count = 0; count < 512; count += 1) bus.emit({ type: 'warning', runId: null, message: text });
    await serverSideClosed;
    client.resume();
    expect(await closed).toBe(1006); // cut off, with no closing handshake to wait behind the queue
  });

  it("refuses a page's requests past the number answered at once, answering each", async () => {
    const bus = new EventBus();
    const never = new Promise<never>(() => undefined);
    const { client, received } = await connectedPair((listener) => bus.subscribe(listener), { dispatch: () => never, limits: { maxRequestsInFlight: 3 } });
    for (let id = 1; id <= 5; id += 1) client.send(JSON.stringify({ type: 'request', id, channel: 'context:paths', payload: { query: '' } }));
    await new Promise<void>((resolve) => client.on('message', () => received.length === 2 && resolve()));
    expect(received).toEqual(
      [4, 5].map((id) => ({ type: 'response', id, response: { ok: false, error: 'context:paths: too many requests at once (3); wait for some to be answered' } })),
    );
    client.close();
  });

  it('cuts off a page that stops answering pings', async () => {
    const bus = new EventBus();
    const { client, serverSideClosed } = await connectedPair((listener) => bus.subscribe(listener), { limits: { heartbeatMs: 50 }, autoPong: false });
    await serverSideClosed;
    expect(client.readyState === client.CLOSED || client.readyState === client.CLOSING).toBe(true);
  });

  it('keeps a page that answers them', async () => {
    const bus = new EventBus();
    // Long enough between pings that a busy machine still answers each in time (client and host share this process).
    const { client } = await connectedPair((listener) => bus.subscribe(listener), { limits: { heartbeatMs: 300 } });
    let pings = 0;
    await new Promise<void>((resolve) => client.on('ping', () => ++pings === 3 && resolve()));
    expect(client.readyState).toBe(client.OPEN);
    client.close();
  });
});
