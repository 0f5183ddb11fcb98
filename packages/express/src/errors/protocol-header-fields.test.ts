import { generateApiKey } from '@signalbox/accounts';
import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import { protocolHeaderFields } from './protocol-header-fields';

const messages = anthropicMessagesCodec.descriptor;
const responses = openAIResponsesCodec.descriptor;

describe('protocolHeaderFields', () => {
  it('shows a gateway key sent as x-api-key as its visible prefix, with the version and beta headers', () => {
    const key = generateApiKey();
    const fields = protocolHeaderFields({ 'x-api-key': key, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2024-04-04', 'user-agent': 'sdk' }, messages);

    expect(fields).toEqual({ 'x-api-key': `${key.slice(0, 12)}…`, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2024-04-04' });
    expect(JSON.stringify(fields)).not.toContain(key.slice(11));
  });

  it('shows a Bearer gateway key as its prefix and any other credential as [redacted]', () => {
    const key = generateApiKey();
    const provider = `sk-ant-${'q'.repeat(20)}${'Z9'.repeat(10)}`;

    expect(protocolHeaderFields({ authorization: `Bearer ${key}` }, responses)).toEqual({ authorization: `Bearer ${key.slice(0, 12)}…` });
    expect(protocolHeaderFields({ authorization: `Bearer ${provider}` }, responses)).toEqual({ authorization: 'Bearer [redacted]' });
    expect(protocolHeaderFields({ authorization: `Basic ${provider}` }, responses)).toEqual({ authorization: '[redacted]' });
    expect(protocolHeaderFields({ 'x-api-key': provider, authorization: `Bearer ${key}` }, messages)).toEqual({
      'x-api-key': '[redacted]',
      authorization: `Bearer ${key.slice(0, 12)}…`,
    });
  });

  it('shows the version header’s alias, scrubbed of credential shapes and cut to 200 characters with the marker', () => {
    const key = generateApiKey();

    expect(protocolHeaderFields({ 'provider-version': `2023-06-01 ${key}` }, messages)).toEqual({ 'provider-version': '2023-06-01 [redacted]' });
    expect(protocolHeaderFields({ 'anthropic-version': 'v'.repeat(1_000) }, messages)).toEqual({ 'anthropic-version': `${'v'.repeat(200)}… (+800 chars)` });
  });

  it('lists only the headers the client sent', () => {
    expect(protocolHeaderFields({ 'content-type': 'application/json' }, responses)).toEqual({});
  });
});
