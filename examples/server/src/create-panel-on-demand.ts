import type { PanelOptions } from '@signalbox/panel';
import type { RequestHandler, Router } from 'express';
import { loadPanelFactory } from './load-on-demand';

/**
 * The account panel, built at the first request under its path rather than at start: a server
 * nobody opens the panel of never loads its modules nor keeps its session and login stores.
 * Building it reads no file and checks nothing that could fail a start.
 */
export function createPanelOnDemand(options: PanelOptions): RequestHandler {
  let panel: Router | undefined;
  return function panelOnDemand(request, response, next) {
    panel ??= loadPanelFactory()(options);
    panel(request, response, next);
  };
}
