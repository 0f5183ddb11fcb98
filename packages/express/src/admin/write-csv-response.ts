import type { Response } from 'express';

/**
 * Streams CSV text to the client as it is produced, as an attachment named `filename`, waiting for
 * the socket to drain instead of buffering, and stops reading when the client goes away. A failure
 * after the first byte can no longer become an error response: it is rethrown, and Express then
 * ends the connection, so a cut-off file is never mistaken for a whole one.
 */
export async function writeCSVResponse(response: Response, chunks: AsyncIterable<string>, filename: string): Promise<void> {
  response.status(200);
  response.setHeader('content-type', 'text/csv; charset=utf-8');
  response.setHeader('content-disposition', `attachment; filename="${filename}"`);
  for await (const chunk of chunks) {
    if (response.destroyed) return;
    if (!response.write(chunk)) {
      await new Promise<void>(resolve => {
        const done = () => {
          response.off('drain', done).off('close', done);
          resolve();
        };
        response.once('drain', done).once('close', done);
      });
    }
  }
  response.end();
}
