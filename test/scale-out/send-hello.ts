/** A minimal priced request to the example server's `signalbox-sim` route, on the Responses or the Messages interface. */
export function sendHello(serverURL: string, key: string, interfaceName: 'responses' | 'messages'): Promise<Response> {
  if (interfaceName === 'responses') {
    return fetch(`${serverURL}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'signalbox-sim', input: 'hello', max_output_tokens: 16 }),
    });
  }
  return fetch(`${serverURL}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] }),
  });
}
