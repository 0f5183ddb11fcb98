import type { YAMLParseError } from 'yaml';
import { findJSONSyntaxError } from './find-json-syntax-error';

/**
 * One line for a YAML or JSON syntax error in `text`: what is wrong and where (`line 3, column 1`),
 * without the parser's multi-line excerpt, the file's text or a stack.
 */
export function describeConfigSyntaxError(error: unknown, format: 'YAML' | 'JSON', text: string): string {
  if (isYAMLParseError(error)) {
    const what = firstLine(error.message).replace(/ at line \d+, column \d+:?$/, '');
    const where = error.linePos?.[0];
    return `YAML syntax error${where ? ` at line ${where.line}, column ${where.col}` : ''}: ${what}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  // V8 words JSON errors as "… in JSON at position 11 (line 3 column 2)", or, without a place,
  // "Unexpected token 'x', "<excerpt of the file>" is not valid JSON" and "Unexpected end of JSON input".
  const place = /\(line (\d+) column (\d+)\)/.exec(message);
  const what = firstLine(message.replace(/ in JSON at position \d+.*$/s, '').replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, ''));
  const where = place ? `line ${place[1]}, column ${place[2]}` : lineAndColumn(text, findJSONSyntaxError(text));
  return `${format} syntax error${where === undefined ? '' : ` at ${where}`}: ${what}`;
}

/** `line 3, column 1` for an offset into `text`, both counted from 1. */
function lineAndColumn(text: string, offset: number | undefined): string | undefined {
  if (offset === undefined) return undefined;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * By name rather than `instanceof`, so that describing a JSON file's error does not load the YAML
 * parser: a YAML file's error comes from that parser, already loaded.
 */
function isYAMLParseError(error: unknown): error is YAMLParseError {
  return error instanceof Error && error.name === 'YAMLParseError';
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}
