import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';

/**
 * Sends CSV text as it is produced, as an attachment, at the pace the client reads (a closed
 * connection stops the reading). A failure after the first byte ends the connection, so a cut-off
 * file is never mistaken for a whole one.
 */
export async function streamCsv(
  response: Response,
  chunks: AsyncIterable<string>,
  filename: string,
): Promise<void> {
  response.status(200);
  response.setHeader('content-type', 'text/csv; charset=utf-8');
  response.setHeader('content-disposition', `attachment; filename="${filename}"`);
  await pipeline(Readable.from(chunks), response);
}
