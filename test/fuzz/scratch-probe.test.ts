import { bodyBytes } from './body-arbitraries';
import { FUZZ_ENDPOINTS } from './fuzz-endpoints';
import { startFuzzGateway } from './fuzz-gateway';
import { sendRawRequest } from './send-raw-request';

it('probe', async () => {
  const gateway = await startFuzzGateway();
  for (const endpoint of FUZZ_ENDPOINTS) {
    for (const seed of [0, 1]) for (const stream of [false, true]) {
      const response = await sendRawRequest(gateway.url, { method: endpoint.method, path: endpoint.path, headers: [...endpoint.authHeaders(gateway.demoKey), ['content-type', 'application/json']], body: bodyBytes(endpoint, { kind: 'valid', seed, stream }) });
      console.log(endpoint.name, seed, stream, response.status, response.body.toString().slice(0, 300));
    }
  }
  await gateway.close(500);
});
