import type { Codec } from '@signalbox/core';
import { createGateway as createGatewayWith, type Gateway, type GatewayOptions } from '@signalbox/express';
import { builtInCodecs } from './built-in-codecs';
import { builtInKinds } from './built-in-kinds';

export type SignalboxOptions = Omit<GatewayOptions, 'codecs'> & {
  /** The protocols to speak. Default: all three built-in codecs. */
  codecs?: readonly Codec[];
};

/**
 * The gateway as one Express Router, speaking Responses, Messages and Chat Completions and
 * reaching Azure OpenAI upstreams unless told otherwise. See `@signalbox/express`'s `createGateway` for every option.
 *
 * @throws ConfigError when the config does not validate.
 * @example app.use(createGateway({ config }))
 */
export function createGateway(options: SignalboxOptions): Gateway {
  return createGatewayWith({ ...options, codecs: options.codecs ?? builtInCodecs, kinds: options.kinds ?? builtInKinds });
}
