import type { DecodeOptions } from './codec';
import { findForeignField, refuseForeignFields } from './refuse-foreign-fields';

const foreignFields: DecodeOptions['foreignFields'] = {
  path: '/v1/responses',
  fields: new Map([
    ['max_tokens', { paths: ['/v1/messages', '/v1/chat/completions'], instead: 'the output limit is `max_output_tokens`' }],
    ['stop', { paths: ['/v1/chat/completions'] }],
    ['prompt', { paths: ['/v1/toy/generate', '/v1/other', '/v1/third'] }],
  ]),
};
const NOTHING_KNOWN = new Set<string>();

describe('refuseForeignFields', () => {
  it('refuses a field of another endpoint with a 400 naming it, where it belongs and what to send instead', () => {
    expect(() => refuseForeignFields({ max_tokens: 5 }, { foreignFields }, NOTHING_KNOWN)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'INVALID_REQUEST',
        param: 'max_tokens',
        message:
          '`max_tokens` is a field of POST /v1/messages and POST /v1/chat/completions, not of this endpoint (POST /v1/responses): the output limit is `max_output_tokens`. ' +
          'Send the body to the endpoint it was written for, or rewrite it for this one.',
      }),
    );
    expect(() => refuseForeignFields({ stop: null }, { foreignFields }, NOTHING_KNOWN)).toThrow(
      expect.objectContaining({ param: 'stop', message: expect.stringMatching(/^`stop` is a field of POST \/v1\/chat\/completions, not of this endpoint \(POST \/v1\/responses\)\. Send/) }),
    );
  });

  it('names every path under the mount path the request came in on', () => {
    expect(() => refuseForeignFields({ prompt: 'hi' }, { foreignFields, mountPath: '/llm' }, NOTHING_KNOWN)).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(
          /^`prompt` is a field of POST \/llm\/v1\/toy\/generate, POST \/llm\/v1\/other and POST \/llm\/v1\/third, not of this endpoint \(POST \/llm\/v1\/responses\)\. /,
        ),
      }),
    );
  });

  it('cuts a mount path that holds long client text', () => {
    const found = findForeignField({ stop: 'x' }, { foreignFields, mountPath: `/${'t'.repeat(5000)}` }, NOTHING_KNOWN);
    expect(found?.endpoint.length).toBeLessThan(300);
    expect(found?.endpoint).toMatch(/^POST \/t+… \(\+\d+ chars\)\/v1\/responses$/);
  });

  it('lets through every other field, the fields the endpoint knows itself, and everything without foreign fields', () => {
    expect(() => refuseForeignFields({ brand_new_field: 1, toString: 2 }, { foreignFields }, NOTHING_KNOWN)).not.toThrow();
    expect(() => refuseForeignFields({ prompt: 'a stored template' }, { foreignFields }, new Set(['prompt']))).not.toThrow();
    expect(() => refuseForeignFields({ max_tokens: 5 }, {}, NOTHING_KNOWN)).not.toThrow();
    expect(findForeignField({ max_tokens: undefined }, { foreignFields }, NOTHING_KNOWN)).toBeUndefined();
  });
});
