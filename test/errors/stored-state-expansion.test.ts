import OpenAI from 'openai';
import { openAIClientFor } from '../helpers/use-openai-gateway';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { createInterfaceClient, createKey, expectAnswered, expectRefusal, refusalOf } from './refusal-helpers';

const MODEL = 'sim-via-responses';
/** `responseStore.maxExpansionBytes` by default: 32 MiB. */
const EXPANSION_LIMIT = 32 * 1024 * 1024;
const EXPANSION_REFUSAL = {
  status: 413,
  code: 'REQUEST_TOO_LARGE',
  param: 'input',
  openAICode: 'request_too_large',
  message: new RegExp(`more than ${EXPANSION_LIMIT} bytes.*Reference fewer items, compact the conversation, or start a new one`),
};

/** A user message carrying one PNG of `characters` base64 characters, as a client attaches a picture. */
function pictureMessage(characters: number) {
  return {
    role: 'user' as const,
    content: [
      { type: 'input_image' as const, image_url: `data:image/png;base64,${'A'.repeat(characters)}`, detail: 'auto' as const },
      { type: 'input_text' as const, text: 'Keep this picture.' },
    ],
  };
}

const references = (id: string, times: number) => Array.from({ length: times }, () => ({ type: 'item_reference' as const, id }));

/**
 * A request of a few KB that names a large stored item many times would make the gateway build (and
 * send, or answer) the item that many times over. Each is refused with 413 in the Responses envelope
 * before any upstream call, from the sizes of the items it names.
 */
describe('413 REQUEST_TOO_LARGE: stored items named past responseStore.maxExpansionBytes', () => {
  let server: TestGateway;
  let key: string;
  let openai: OpenAI;
  /** The ids of the stored picture items, by their size in base64 characters. */
  const stored = new Map<number, string>();

  /** Stores a picture of `characters` base64 characters in a response of the test account; returns its item id. */
  async function storePicture(characters: number): Promise<string> {
    const response = await openai.responses.create({ model: MODEL, input: [pictureMessage(characters)], max_output_tokens: 16 });
    const [item] = (await openai.responses.inputItems.list(response.id)).data;
    return item!.id;
  }

  beforeAll(async () => {
    server = await startTestGateway();
    key = await createKey(server);
    openai = openAIClientFor(server.url, key);
    for (const characters of [1_000_000, 3_900_000]) stored.set(characters, await storePicture(characters));
  });
  afterAll(() => server.close(1_000));

  it.each([
    [40, 1_000_000],
    [100, 3_900_000],
  ])('refuses %i references to a stored %i-character picture before any upstream call', async (times, characters) => {
    const sdk = createInterfaceClient(server, 'responses', { key });
    const body = { model: MODEL, input: [...references(stored.get(characters)!, times), { role: 'user', content: 'What do you see?' }] };
    expect(JSON.stringify(body).length).toBeLessThan(8_000);
    const upstreamCalls = server.simulator.stats().requests;
    const failure = await refusalOf(sdk.create(body));
    await expectRefusal(server, sdk, failure, EXPANSION_REFUSAL, key);
    expect(server.simulator.stats().requests).toBe(upstreamCalls);
  });

  it.each([40, 300, 600])('refuses a compaction of %i references to the stored 1 MB picture before the summary is asked for', async times => {
    const upstreamCalls = server.simulator.stats().requests;
    const failure = (await refusalOf(
      openai.responses.compact({ model: MODEL, input: references(stored.get(1_000_000)!, times) }),
    )) as InstanceType<typeof OpenAI.APIError>;
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect({ status: failure.status, code: failure.code, type: failure.type, param: failure.param }).toEqual({
      status: 413,
      code: 'request_too_large',
      type: 'invalid_request_error',
      param: 'input',
    });
    expect(failure.message).toMatch(EXPANSION_REFUSAL.message);
    expect(failure.requestID).toMatch(/^req_/);
    expect(server.simulator.stats().requests).toBe(upstreamCalls);
  });

  it('continues a conversation of twelve turns with a 1 MB picture each, by previous_response_id', async () => {
    let previous: string | undefined;
    for (let turn = 1; turn <= 12; turn += 1) {
      const answer = await openai.responses.create({
        model: MODEL,
        input: [pictureMessage(1_000_000)],
        max_output_tokens: 16,
        ...(previous !== undefined && { previous_response_id: previous }),
      });
      expect(['completed', 'incomplete']).toContain(answer.status);
      previous = answer.id;
    }
  });

  it('still serves a conversation that names the picture a few times, within the budget', async () => {
    const sdk = createInterfaceClient(server, 'responses', { key });
    const answer = await sdk.create({ model: MODEL, input: [...references(stored.get(1_000_000)!, 3), { role: 'user', content: 'Compare them.' }] });
    expectAnswered(sdk, answer, MODEL);
  });
});
