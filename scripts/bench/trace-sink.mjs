// A trace collector that keeps nothing: the OTLP/HTTP endpoint the bench's tracing gateway exports
// its spans to, so what tracing costs the gateway is measured without a real collector competing
// for the cores. Reads each export whole and answers it as a collector that accepted every span
// does (an empty ExportTraceServiceResponse: no body for protobuf, `{}` for JSON), counts the bytes
// it was sent, and prints its URL.
// @see https://opentelemetry.io/docs/specs/otlp/#otlphttp-response
import { createServer } from 'node:http';

let exports = 0;
let bytes = 0;
const server = createServer((request, response) => {
  request.on('data', chunk => (bytes += chunk.length));
  request.on('end', () => {
    exports += 1;
    const json = (request.headers['content-type'] ?? '').includes('json');
    response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
    response.end(json ? '{}' : undefined);
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`trace sink listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  console.log(`trace sink received ${exports} exports, ${bytes} bytes`);
  server.close();
  server.closeAllConnections();
});
