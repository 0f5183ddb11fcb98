import type { IncomingMessage } from 'node:http';

/** A request's whole body as UTF-8 text, for emulators that read it before deciding. */
export async function readRequestText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
