import { startTestGateway } from '../helpers/start-test-gateway';
it('probe', async () => {
  const server = await startTestGateway();
  const send = async (path: string, body: unknown, headers: Record<string, string>) => {
    const r = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    console.log(path, r.status, await r.text());
  };
  const b = { authorization: `Bearer ${server.demoKey}` };
  const m = { 'x-api-key': server.demoKey!, 'anthropic-version': '2023-06-01' };
  await send('/v1/responses', { model: 'switchyard-sim', input: [{ role: 'user', content: [{ type: 'input_hologram', text: 'x' }] }] }, b);
  await send('/v1/messages', { model: 'switchyard-sim', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'hologram', text: 'x' }] }] }, m);
  await send('/v1/chat/completions', { model: 'switchyard-sim', messages: [{ role: 'user', content: [{ type: 'hologram', text: 'x' }] }] }, b);
  await send('/v1/messages', { model: 'switchyard-sim', max_tokens: 5, messages: [{ role: 'system', content: 'x' }, { role: 'user', content: 'x' }] }, m);
  await send('/v1/responses', { model: 'switchyard-sim', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, b);
  await server.close();
});
