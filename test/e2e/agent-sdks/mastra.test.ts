import { createOpenAI } from '@ai-sdk/openai';
import { startTestGateway, type TestGateway } from '../../helpers/start-test-gateway';
import { DEFAULT_ROUTES } from './default-routes';
import { runMastraLoop } from './mastra-tool-loop';
import { createRecordingFetch, forbidRemoteFetch } from './record-requests';
import { expectWeatherLoop } from './vercel-ai-sdk-tool-loop';

describe.each(DEFAULT_ROUTES)('Mastra agent tool loops on %s', route => {
  let server: TestGateway;
  let network: ReturnType<typeof forbidRemoteFetch>;
  beforeAll(async () => {
    network = forbidRemoteFetch();
    server = await startTestGateway();
  });
  afterAll(async () => {
    await server.close(1_000);
    expect(network.restore()).toEqual([]);
  });

  const openai = (recorder: ReturnType<typeof createRecordingFetch>) =>
    createOpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, fetch: recorder.fetch });

  it.each(['generate', 'stream'] as const)(
    'OpenAI-compatible chat model (%s): runs get_weather, then answers from its result',
    async mode => {
      const recorder = createRecordingFetch();
      expectWeatherLoop(
        await runMastraLoop(openai(recorder).chat(route), mode),
        recorder.requests,
        '/v1/chat/completions',
      );
    },
  );

  it.each(['generate', 'stream'] as const)(
    'Responses model with store off (%s): runs get_weather, then answers from its result',
    async mode => {
      const recorder = createRecordingFetch();
      expectWeatherLoop(
        await runMastraLoop(openai(recorder).responses(route), mode, { openai: { store: false } }),
        recorder.requests,
        '/v1/responses',
      );
    },
  );
});
