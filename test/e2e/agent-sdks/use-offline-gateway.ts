import { startTestGateway, type TestGateway } from '../../helpers/start-test-gateway';
import { forbidRemoteFetch } from './record-requests';

/**
 * Starts the example server for the enclosing `describe` with every `fetch` to a host other than
 * 127.0.0.1 refused, and fails the block on close if anything tried one. Read `.server` inside tests.
 */
export function useOfflineGateway(): { readonly server: TestGateway } {
  const context = {} as { server: TestGateway };
  let network: ReturnType<typeof forbidRemoteFetch>;
  beforeAll(async () => {
    network = forbidRemoteFetch();
    context.server = await startTestGateway();
  });
  afterAll(async () => {
    await context.server.close(1_000);
    expect(network.restore()).toEqual([]);
  });
  return context;
}
