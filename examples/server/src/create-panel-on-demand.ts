import type { PanelOptions } from '@signalbox/panel';
import type { RequestHandler, Router } from 'express';
import { loadPanelFactory } from './load-on-demand';

/**
 * The account panel, built at the first request under its path rather than at start: a server
 * nobody opens the panel of never loads its modules nor keeps its session and login stores.
 * With single sign-on it is built at once, since it then reads its provider's discovery document
 * at start (and warns when it cannot).
 */
export function createPanelOnDemand(options: PanelOptions): RequestHandler {
  let panel: Router | undefined = options.sso ? loadPanelFactory()(options) : undefined;
  return function panelOnDemand(request, response, next) {
    panel ??= loadPanelFactory()(options);
    panel(request, response, next);
  };
}
