import express from 'express';
import { createGateway } from 'signalbox';
import { createKeyedStore } from '../helpers/create-keyed-store';
import { listenOnLoopback } from '../helpers/listen-on-loopback';
import { openRawConnection } from '../helpers/open-raw-connection';

let mockWebSocketLibraryLoads = 0;
jest.mock('ws', () => {
  mockWebSocketLibraryLoads += 1;
  return jest.requireActual('ws');
});

describe('the WebSocket library of an attached WebSocket mode', () => {
  it('is loaded at the first WebSocket upgrade, not when the gateway is made and attached, and then serves it', async () => {
    const keyed = await createKeyedStore();
    const gateway = createGateway({
      config: {
        upstreams: { openai: { protocol: 'openai-responses', baseURL: 'http://127.0.0.1:1' } },
        routes: [{ model: 'gpt-host', interfaces: ['responses'], targets: [{ upstream: 'openai', model: 'gpt-1' }] }],
      },
      store: keyed.store,
    });
    const host = await listenOnLoopback(express().use(gateway));
    try {
      gateway.attachUpgrade(host.server);
      const models = await fetch(`${host.url}/v1/models`, { headers: { authorization: `Bearer ${keyed.key}` } });
      expect(models.status).toBe(200);
      expect(mockWebSocketLibraryLoads).toBe(0);
      const connection = await openRawConnection(host.url);
      const handshakeKey = Buffer.from('sixteen byte key').toString('base64');
      await connection.write(
        'GET /v1/responses HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: Upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\n' +
          `sec-websocket-key: ${handshakeKey}\r\nauthorization: Bearer ${keyed.key}\r\n\r\n`,
      );
      const answer = await connection.answer;
      expect(answer.status).toBe(101);
      expect(answer.headers.upgrade).toBe('websocket');
      expect(mockWebSocketLibraryLoads).toBe(1);
      connection.destroy();
    } finally {
      await gateway.close();
      await host.close();
    }
  });
});
