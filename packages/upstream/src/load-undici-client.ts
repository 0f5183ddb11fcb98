/* eslint-disable @typescript-eslint/no-require-imports -- three modules of undici by path: the point of this file */
import type { buildConnector, Client as UndiciClient, Dispatcher } from 'undici';

/** undici's `Client`, its `request` method and `buildConnector`, as `loadUndiciClient` gives them. */
export type UndiciClientParts = {
  Client: typeof UndiciClient;
  /** `Dispatcher.prototype.request`: call with the client as `this`. */
  request: (this: UndiciClient, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** Makes the function clients open their sockets with; one shared by a pool's clients shares their TLS session cache. */
  buildConnector: typeof buildConnector;
};

/**
 * undici's `Client` (one HTTP/1.1 connection), `request` and `buildConnector`, loaded from the
 * modules that define them rather than from undici's index, which also loads fetch, WebSocket, the
 * HTTP cache, mocks, proxy agents and interceptors: about 9 MiB of resident memory for as long as
 * the process runs, none of it used here. The index's one side effect a client's `request` needs,
 * copying the API methods onto the dispatcher prototype, is replaced by calling `request` with the
 * client as `this`. The paths are those of undici 7, pinned exactly in package.json; the upstream
 * client's tests load them.
 */
export function loadUndiciClient(): UndiciClientParts {
  return {
    Client: require('undici/lib/dispatcher/client') as typeof UndiciClient,
    request: require('undici/lib/api/api-request') as UndiciClientParts['request'],
    buildConnector: require('undici/lib/core/connect') as typeof buildConnector,
  };
}
