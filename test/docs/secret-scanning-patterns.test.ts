/**
 * The README's "Secret scanning" expressions, as a scanner would run them over text: each finds
 * every secret of its kind the gateway generates, exactly, and never one of another kind. The
 * table and the gitleaks configuration must give the same expressions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateAdminToken, generateApiKey, generateConsoleToken } from '@signalbox/accounts';

const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
const section = readme.slice(readme.indexOf('\n### Secret scanning\n'), readme.indexOf('\n### Balance holds\n'));

/** The regular expression of each table row, by the secret it names. */
const tablePatterns = new Map(
  [...section.matchAll(/^\| ([^|]+?) \| [^|]+ \| `([^`]+)` \|$/gm)].map(([, secret, pattern]) => [secret!, pattern!] as const),
);
/** The `regex` of each gitleaks rule, by its id. */
const gitleaksPatterns = new Map([...section.matchAll(/^id = "([^"]+)"\n(?:.*\n)*?regex = '''(.+)'''$/gm)].map(([, id, pattern]) => [id!, pattern!] as const));

const kinds = [
  { secret: 'API key', rule: 'signalbox-api-key', generate: generateApiKey },
  { secret: 'admin token', rule: 'signalbox-admin-token', generate: generateAdminToken },
  { secret: 'account console token', rule: 'signalbox-console-token', generate: generateConsoleToken },
];

/** Every match of `pattern` in `text`, as a scanner reports them. */
function scan(pattern: string, text: string): string[] {
  return [...text.matchAll(new RegExp(pattern, 'g'))].map(([match]) => match);
}

/** A secret where a leak puts one: in an assignment, a header, a JSON string, a URL. */
function leaks(secret: string): string[] {
  return [secret, `SIGNALBOX_KEY=${secret}\n`, `Authorization: Bearer ${secret}\r\n`, `{"apiKey":"${secret}"}`, `https://x.test/?key=${secret}&a=1`];
}

describe('the README secret-scanning expressions', () => {
  it('are given for the three kinds of secret, the same in the table and in the gitleaks rules', () => {
    expect([...tablePatterns.keys()]).toEqual(kinds.map(kind => kind.secret));
    expect(kinds.map(kind => gitleaksPatterns.get(kind.rule))).toEqual(kinds.map(kind => tablePatterns.get(kind.secret)));
  });

  it.each(kinds)('find every generated $secret exactly, wherever it leaked', ({ secret, generate }) => {
    const pattern = tablePatterns.get(secret)!;
    for (let sample = 0; sample < 200; sample += 1) {
      const generated = generate();
      for (const text of leaks(generated)) expect(scan(pattern, text)).toEqual([generated]);
    }
  });

  it.each(kinds)('find no $secret in a secret of another kind', ({ secret, generate }) => {
    const others = kinds.filter(kind => kind.secret !== secret).map(kind => tablePatterns.get(kind.secret)!);
    for (let sample = 0; sample < 200; sample += 1) {
      const generated = generate();
      for (const pattern of others) expect({ pattern, found: scan(pattern, leaks(generated).join(' ')) }).toEqual({ pattern, found: [] });
    }
  });

  it.each(kinds)('find no $secret one character short or long', ({ secret, generate }) => {
    const pattern = tablePatterns.get(secret)!;
    const generated = generate();
    expect(scan(pattern, generated.slice(0, -1))).toEqual([]);
    expect(scan(pattern, `${generated}a`)).toEqual([]);
  });
});
