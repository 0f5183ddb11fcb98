import type { PresentedUsageEntry } from './present-usage-records';

/** The columns of a usage CSV export, in order: the API's row fields, by the same names. */
export const USAGE_CSV_COLUMNS = [
  'time',
  'requestId',
  'accountId',
  'keyId',
  'keyPrefix',
  'model',
  'protocol',
  'status',
  'outcome',
  'errorCode',
  'cost',
  'costMicros',
  'uncoveredMicros',
  'cacheSavingsMicros',
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'cacheWrite5mTokens',
  'cacheWrite1hTokens',
  'reasoningTokens',
  'estimated',
  'stream',
  'finishReason',
  'latencyMs',
  'timeToFirstByteMs',
  'attempts',
  'upstream',
  'upstreamModel',
  'upstreamProtocol',
  'upstreamRequestId',
  'warnings',
  'traceId',
  'upstreamCredential',
  'upstreamKind',
] as const satisfies readonly (keyof PresentedUsageEntry)[];

/**
 * Spreadsheets run a cell as a formula (or a DDE call) when its text starts with `=`, `+`, `-` or
 * `@`, in ASCII or full width (`＝ ＋ － ＠`, which some of them fold to ASCII), even after leading
 * white space (spaces, NBSP, tabs: Excel skips them); a cell that starts with a control character
 * (tab, CR, LF, NUL) is also suspect, whatever follows.
 */
const FORMULA_START = /^(?:[\t\r\n\0]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

/**
 * Characters that make a cell quoted: the quote itself, line breaks, and the list separator of
 * every common locale (`,`, `;` where the comma is the decimal mark, tab), so the file splits into
 * the same cells whichever separator the spreadsheet assumes.
 */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/**
 * One CSV cell: text that a spreadsheet would read as a formula gets a leading `'` (the OWASP
 * advice, https://owasp.org/www-community/attacks/CSV_Injection), then, per RFC 4180
 * (https://www.rfc-editor.org/rfc/rfc4180), a cell holding a quote, a separator or a line break is
 * quoted with its quotes doubled. `null` is an empty cell; a list is joined with `; `.
 */
export function formatCsvCell(value: string | number | boolean | null | readonly string[]): string {
  if (value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : value.join('; ');
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

type CsvValue = Parameters<typeof formatCsvCell>[0];

/** One row as a CRLF-terminated CSV line of `columns`, in their order. */
export function formatCsvRow<Column extends string>(columns: readonly Column[], row: Readonly<Record<Column, CsvValue>>): string {
  return `${columns.map(column => formatCsvCell(row[column])).join(',')}\r\n`;
}

/** One page of CSV lines and where the next page starts (absent after the last). */
export type CsvPage = { lines: string[]; nextCursor?: string | undefined };

/**
 * A CSV file read page by page as the consumer pulls: the header line of `columns`, then each page's
 * lines from `start` until a page has no `nextCursor`. Without `readPage` (a filter that matches
 * nothing the caller may see) the file is the header alone.
 */
export function exportCsvPages(columns: readonly string[], readPage: ((cursor: string | undefined) => Promise<CsvPage>) | undefined, start?: string): AsyncIterable<string> {
  return (async function* csvPages() {
    yield `${columns.join(',')}\r\n`;
    if (!readPage) return;
    let cursor = start;
    do {
      const page = await readPage(cursor);
      if (page.lines.length > 0) yield page.lines.join('');
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  })();
}

/** One usage row as a CRLF-terminated CSV line. */
export function formatUsageCsvRow(row: PresentedUsageEntry): string {
  return formatCsvRow(USAGE_CSV_COLUMNS, row);
}
