import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { AccountStore } from '@signalbox/accounts';
import type { GatewayConfigInput } from '@signalbox/engine';
import {
  createAuthMiddleware,
  createBodyMiddleware,
  createGateway,
  createGenerationHandler,
  createRequestIdMiddleware,
} from '@signalbox/express';
import express, { Router, type Express } from 'express';

/**
 * A host app that already has its own routes (`/`, `/api/profile`, its own JSON body parser) and
 * mounts the gateway under `/llm`: OpenAI clients then use `{host}/llm/v1`, Anthropic clients
 * `{host}/llm`. It also shows mounting single middlewares on a route of the host's own choosing.
 */
export function createExistingApp(options: { config: GatewayConfigInput; store: AccountStore }): {
  app: Express;
  close(): Promise<void>;
} {
  const app = express();
  const codecs = [openAIResponsesCodec, anthropicMessagesCodec];
  const gateway = createGateway({ config: options.config, codecs, store: options.store });
  // Mounted before the host's own body parser, so the gateway's size limit and error envelopes apply.
  app.use('/llm', gateway);

  app.use(express.json()); // the host's own parser, for its own routes
  app.get('/', (_request, response) => {
    response.type('text/plain').send('Acme app home');
  });
  app.get('/api/profile', (_request, response) => {
    response.json({ name: 'Ada', plan: 'team' });
  });

  // A subset, composed by hand: one Responses-style endpoint at a path the host picked.
  const engine = gateway.engine;
  const custom = Router(); // mounted after the host's parser: the body middleware leaves parsed bodies alone
  custom.post(
    '/ask',
    createRequestIdMiddleware({ engine, protocol: 'openai-responses' }),
    createAuthMiddleware(),
    createBodyMiddleware({ limitBytes: 256 * 1024 }),
    createGenerationHandler(),
  );
  custom.use(gateway.errorHandler);
  app.use('/internal', custom);

  return { app, close: () => gateway.close() };
}
