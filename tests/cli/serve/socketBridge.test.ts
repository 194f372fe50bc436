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
async function connectedPair(subscribe: SocketBridgeOptions['subscribe']) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const serverSideClosed = new Promise<void>((resolve) =>
    server.on('connection', (socket) => {
      bridgeSocket({ socket, dispatch: async () => ({ ok: true, value: null }), subscribe });
      socket.on('close', () => resolve());
    }),
  );
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
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
});
