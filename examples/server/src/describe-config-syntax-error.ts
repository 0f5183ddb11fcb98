import type { YAMLParseError } from 'yaml';

/**
 * One line for a YAML or JSON syntax error: what is wrong and where (`line 3, column 1`), without
 * the parser's multi-line excerpt or a stack.
 */
export function describeConfigSyntaxError(error: unknown, format: 'YAML' | 'JSON'): string {
  if (isYAMLParseError(error)) {
    const what = firstLine(error.message).replace(/ at line \d+, column \d+:?$/, '');
    const where = error.linePos?.[0];
    return `YAML syntax error${where ? ` at line ${where.line}, column ${where.col}` : ''}: ${what}`;
  }
  const message = firstLine(error instanceof Error ? error.message : String(error));
  // V8 words JSON errors as "… in JSON at position 11 (line 3 column 2)".
  const place = /\(line (\d+) column (\d+)\)/.exec(message);
  const what = message.replace(/ in JSON at position \d+.*$/, '');
  return `${format} syntax error${place ? ` at line ${place[1]}, column ${place[2]}` : ''}: ${what}`;
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
