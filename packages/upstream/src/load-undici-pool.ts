/* eslint-disable @typescript-eslint/no-require-imports -- two modules of undici by path: the point of this file */
import type { Dispatcher, Pool as UndiciPool } from 'undici';

/** undici's `Pool` and its `request` method, as `loadUndiciPool` gives them. */
export type UndiciPoolParts = {
  Pool: typeof UndiciPool;
  /** `Dispatcher.prototype.request`: call with the pool as `this`. */
  request: (this: UndiciPool, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
};

/**
 * undici's `Pool` and `request`, loaded from the two modules that define them rather than from
 * undici's index, which also loads fetch, WebSocket, the HTTP cache, mocks, proxy agents and
 * interceptors: about 9 MiB of resident memory for as long as the process runs, none of it used
 * here. The index's one side effect a pool's `request` needs, copying the API methods onto the
 * dispatcher prototype, is replaced by calling `request` with the pool as `this`. The paths are
 * those of undici 7, pinned exactly in package.json; the upstream client's tests load them.
 */
export function loadUndiciPool(): UndiciPoolParts {
  return {
    Pool: require('undici/lib/dispatcher/pool') as typeof UndiciPool,
    request: require('undici/lib/api/api-request') as UndiciPoolParts['request'],
  };
}
