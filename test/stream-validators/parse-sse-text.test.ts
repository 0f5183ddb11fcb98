import { parseSSEText } from './parse-sse-text';
import { readStreamFixture } from './sse-message-mutations';

describe('parseSSEText', () => {
  it('frames named and data-only events, dropping comments', () => {
    const text = ': keep-alive\n\nevent: ping\ndata: {"type":"ping"}\n\ndata: [DONE]\n\n';
    expect(parseSSEText(text)).toEqual([
      { event: 'ping', data: '{"type":"ping"}', id: undefined },
      { event: undefined, data: '[DONE]', id: undefined },
    ]);
  });

  it('handles CRLF, multi-line data, multi-byte text and a missing final blank line', () => {
    const text = 'event: a\r\ndata: {"text":\r\ndata: "Grüße ✓"}\r\n\r\ndata: tail';
    expect(parseSSEText(text)).toEqual([
      { event: 'a', data: '{"text":\n"Grüße ✓"}', id: undefined },
      { event: undefined, data: 'tail', id: undefined },
    ]);
  });

  it('reads every fixture frame', () => {
    expect(readStreamFixture('responses-text.1')).toHaveLength(10);
    expect(readStreamFixture('chat-text-usage.1').at(-1)).toEqual({
      event: undefined,
      data: '[DONE]',
      id: undefined,
    });
  });
});
