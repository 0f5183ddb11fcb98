import { closestName } from '@signalbox/core';
import { CliError } from './cli-command';

/** A command's result as the CLI prints it: indented JSON. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function parseUnits(value: string, name: string): number {
  if (/^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  throw new CliError(`${name} must be a number of currency units, such as 10 or 2.5 (got '${value}')`);
}

export function parseDays(value: string, name: string): number {
  const days = /^\d{1,5}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (days >= 1 && days <= 36_500) return days;
  throw new CliError(`${name} must be a whole number of days from 1 to 36500, such as 90 (got '${value.slice(0, 40)}')`);
}

/** A whole number of at least 1, as the admin API's key limits take them. */
export function parseWhole(value: string, name: string): number {
  const number = /^\d{1,15}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (number >= 1) return number;
  throw new CliError(`${name} must be a whole number of at least 1, such as 60 (got '${value.slice(0, 40)}')`);
}

export function parseDate(value: string, name: string): string {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) || /T.*(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isNaN(time)) return new Date(time).toISOString();
  throw new CliError(`${name} must be a date such as 2027-01-01, or a time with its offset such as 2027-01-01T12:00:00Z (got '${value}')`);
}

/**
 * A comma-separated list of model IDs, each one a route of `routes`: a key limited to a model no
 * route serves could call nothing by it, so a typo is refused here rather than found at the first request.
 */
export function parseModelList(value: string, name: string, routes: readonly string[]): string[] {
  const items = value.split(',').map(item => item.trim()).filter(item => item !== '');
  if (items.length === 0) throw new CliError(`${name} needs at least one model ID, such as ${routes[0] ?? 'signalbox-sim'} or a,b`);
  const unknown = items.find(item => !routes.includes(item));
  if (unknown === undefined) return items;
  const closest = closestName(unknown, routes);
  const shown = routes.length > 10 ? `${routes.slice(0, 10).join(', ')} and ${routes.length - 10} more` : routes.join(', ');
  throw new CliError(
    `${name}: no route serves the model ID '${unknown.slice(0, 100)}'${closest === undefined ? '' : ` (did you mean ${closest}?)`}; the routes are ${shown}`,
  );
}
