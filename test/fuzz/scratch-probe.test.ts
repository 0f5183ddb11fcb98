import fc from 'fast-check';
import { bodyBytes, fuzzBody } from './body-arbitraries';
import { endpointNamed, ENDPOINT_NAMES } from './fuzz-endpoints';
import { startFuzzGateway } from './fuzz-gateway';
import { sendRawRequest } from './send-raw-request';

it('probe', async () => {
  const gateway = await startFuzzGateway();
  const lines: string[] = [];
  const destination = gateway.audit.destination;
  const write = destination.write.bind(destination) as (chunk: unknown, ...rest: unknown[]) => boolean;
  destination.write = ((chunk: unknown, ...rest: unknown[]) => { lines.push(String(chunk)); return write(chunk, ...rest); }) as typeof destination.write;
  const samples = fc.sample(fc.tuple(fc.constantFrom(...ENDPOINT_NAMES), fuzzBody), { numRuns: 700, seed: 42 });
  for (const [name, body] of samples) {
    const endpoint = endpointNamed(name);
    const before = lines.length;
    const bytes = bodyBytes(endpoint, body);
    const response = await sendRawRequest(gateway.url, { method: endpoint.method, path: endpoint.path, headers: [...endpoint.authHeaders(gateway.demoKey), ['content-type', 'application/json']], body: bytes });
    const leaked = lines.slice(before).filter(line => line.includes('xxxxxxxxxxxx'));
    if (leaked.length > 0) {
      console.log(name, JSON.stringify(body).slice(0, 400), response.status, bytes.toString().slice(0, 300));
      console.log(leaked.map(line => line.replace(/x{20,}/g, m => `<x*${m.length}>`).slice(0, 1500)).join('\n'));
      break;
    }
  }
  console.log(gateway.audit.findLeaks().map(l => l.slice(0, 30)));
  await gateway.close(500).catch(e => console.log(String(e)));
});
