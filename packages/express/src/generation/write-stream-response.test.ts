import type { StreamOutcome } from '@signalbox/engine';
import type { Response } from 'express';
import { writeStreamResponse } from './write-stream-response';

/** A response that records what reaches the connection: header flushes, writes and the end. */
function recordingResponse() {
  const calls: string[] = [];
  let headersSent = false;
  const response = {
    status: () => response,
    setHeader(name: string, value: string) {
      calls.push(`setHeader ${name}: ${value}`);
      return response;
    },
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
    expect(calls.filter(call => !call.startsWith('setHeader'))).toEqual(['write data: first\n\n', 'write data: second\n\n', 'end']);
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
    expect(calls.filter(call => !call.startsWith('setHeader'))).toEqual(['flushHeaders']);
    release();
    await writing;
    expect(calls.filter(call => !call.startsWith('setHeader'))).toEqual(['flushHeaders', 'write data: late\n\n', 'end']);
  });

  it('sends SSE with keep-alive comments, and a stream framed otherwise with its own content type and none', async () => {
    jest.useFakeTimers();
    try {
      for (const contentType of [undefined, 'application/json; charset=UTF-8']) {
        const { response, calls } = recordingResponse();
        let release!: () => void;
        const waiting = new Promise<void>(resolve => (release = resolve));
        const writing = writeStreamResponse(response, async sink => (await waiting, sink.write('[{}]'), outcome), { ...options, keepAliveMs: 1_000, ...(contentType && { contentType }) });
        jest.advanceTimersByTime(2_500);
        release();
        await writing;
        expect(calls).toContain(`setHeader content-type: ${contentType ?? 'text/event-stream; charset=utf-8'}`);
        expect(calls.some(call => call.startsWith('write :'))).toBe(contentType === undefined);
      }
    } finally {
      jest.useRealTimers();
    }
  });
});
