import fc from 'fast-check';
import { spliceJSONString } from './splice-json-string';

const CLIENT = JSON.stringify('client-model');

describe('spliceJSONString', () => {
  it('replaces a top-level string member and keeps every other byte as written', () => {
    const text = '{"id":"c1", "object" : "chat.completion.chunk","model":"gpt-4o","choices":[{"delta":{"content":"hi"}}]}';
    expect(spliceJSONString(text, ['model'], CLIENT)).toBe(
      '{"id":"c1", "object" : "chat.completion.chunk","model":"client-model","choices":[{"delta":{"content":"hi"}}]}',
    );
  });

  it('follows a path into nested objects, skipping members of every kind on the way', () => {
    const text =
      '{"type":"message_start","n":-1.5e3,"flag":true,"none":null,"list":[1,{"model":"x"},"]}"],' +
      '"message" : {"id":"m1","content":[],"model" : "claude-x","usage":{"input_tokens":3}}}';
    expect(spliceJSONString(text, ['message', 'model'], CLIENT)).toBe(
      '{"type":"message_start","n":-1.5e3,"flag":true,"none":null,"list":[1,{"model":"x"},"]}"],' +
        '"message" : {"id":"m1","content":[],"model" : "client-model","usage":{"input_tokens":3}}}',
    );
  });

  it('is not fooled by the member name inside strings, escaped quotes or nested objects', () => {
    const text =
      '{"content":"say \\"model\\":\\"evil\\" {\\"model\\":1}","args":{"model":"inner"},"model":"up\\"stream\\\\","end":1}';
    const spliced = spliceJSONString(text, ['model'], CLIENT);
    expect(spliced).toBe('{"content":"say \\"model\\":\\"evil\\" {\\"model\\":1}","args":{"model":"inner"},"model":"client-model","end":1}');
    expect(JSON.parse(spliced!)).toEqual({ ...JSON.parse(text), model: 'client-model' });
  });

  it('matches a member name written with escapes', () => {
    expect(spliceJSONString('{"mod\\u0065l":"a"}', ['model'], CLIENT)).toBe('{"mod\\u0065l":"client-model"}');
  });

  it('is undefined when the member is absent, not a string, or reached through a non-object', () => {
    expect(spliceJSONString('{"id":"c1","choices":[]}', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{}', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"model":null}', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"model":{"name":"a"}}', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"message":"text","model":"a"}', ['message', 'model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('[{"model":"a"}]', ['model'], CLIENT)).toBeUndefined();
  });

  it('is undefined for text that is not one whole object: a string or bracket left open, or more after its end', () => {
    expect(spliceJSONString('[DONE]', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('not json', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"model":"unterminated', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"a":{"b":1,"model":"x"', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"id":"chatcmpl-1","model":"upstream-model","choices":[', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"type":"message_start","message":{"model":', ['message', 'model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"model":"a","s":"open \\"}', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"model":"a"} trailing', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString('{"model":"a"}}', ['model'], CLIENT)).toBeUndefined();
    expect(spliceJSONString(' {"model":"a"}\n', ['model'], CLIENT)).toBe(' {"model":"client-model"}\n');
  });

  it('is defined, and equal to parsing and setting the member, for any text that parses to an object with a string model', () => {
    const texts = fc.oneof(
      fc.json(),
      fc.string(),
      fc.tuple(fc.json(), fc.nat(), fc.string({ maxLength: 2 })).map(([json, at, noise]) => json.slice(0, at % (json.length + 1)) + noise + json.slice(at % (json.length + 1))),
      fc.tuple(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()).map(([object, model]) => JSON.stringify({ ...object, model })),
    );
    fc.assert(
      fc.property(texts, text => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return;
        }
        const hasStringModel = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && typeof (parsed as { model?: unknown }).model === 'string';
        const spliced = spliceJSONString(text, ['model'], CLIENT);
        expect(spliced !== undefined).toBe(hasStringModel);
        if (spliced !== undefined) expect(JSON.parse(spliced)).toEqual({ ...(parsed as object), model: 'client-model' });
      }),
    );
  });

  it('is undefined for every cut of an object short of its end, wherever the cut falls', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.nat(), (object, model, at) => {
        const text = JSON.stringify({ model, ...object });
        expect(spliceJSONString(text.slice(0, at % text.length), ['model'], CLIENT)).toBeUndefined();
      }),
    );
  });

  it('gives what parsing, setting the member and serialising again gives, for any object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.string(), fc.boolean(), (object, model, replacement, indent) => {
        const text = JSON.stringify({ ...object, model }, null, indent ? 1 : 0);
        const spliced = spliceJSONString(text, ['model'], JSON.stringify(replacement));
        expect(spliced).toBeDefined();
        expect(JSON.parse(spliced!)).toEqual({ ...JSON.parse(text), model: replacement });
      }),
    );
  });
});
