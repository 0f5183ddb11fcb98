import type { StreamOutcome } from '@signalbox/engine';
import type { Response } from 'express';
import { writeStreamResponse } from './write-stream-response';

/** A response that records what reaches the connection: header flushes, writes and the end. */
function recordingResponse() {
  const calls: string[] = [];
  let headersSent = false;
  const response = {
    status: () => response,
    setHeader: () => response,
    get headersSent() {
      return headersSent;
    },
    flushHeaders() {
      calls.push('flushHeaders');
      headersSent = true;
    },
    write(text: string) {
      calls.push(`write ${text}`);
      headersSent = true;
      return true;
    },
    end() {
      calls.push('end');
    },
  };
  return { response: response as unknown as Response, calls };
}

const outcome = { clientAborted: false } as unknown as StreamOutcome;
const options = { signal: new AbortController().signal, keepAliveMs: 0 };

describe('writeStreamResponse', () => {
  it('sends the headers in the same write as the first frames when the stream writes them at once', async () => {
    const { response, calls } = recordingResponse();
    const ended = await writeStreamResponse(
      response,
      async sink => {
        sink.write('data: first\n\n');
        await Promise.resolve();
        sink.write('data: second\n\n');
        return outcome;
      },
      options,
    );
    expect(ended).toBe(outcome);
    expect(calls).toEqual(['write data: first\n\n', 'write data: second\n\n', 'end']);
  });

  it('sends the headers at once when the stream’s first frame waits', async () => {
    const { response, calls } = recordingResponse();
    let release!: () => void;
    const waiting = new Promise<void>(resolve => (release = resolve));
    const writing = writeStreamResponse(
      response,
      async sink => {
        await waiting;
        sink.write('data: late\n\n');
        return outcome;
      },
      options,
    );
    expect(calls).toEqual(['flushHeaders']);
    release();
    await writing;
    expect(calls).toEqual(['flushHeaders', 'write data: late\n\n', 'end']);
  });
});
