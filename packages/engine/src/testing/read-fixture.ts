import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One of the engine's upstream fixtures (`testing/__fixtures__`), as text, byte for byte. */
export function readFixture(name: string): string {
  return readFileSync(join(__dirname, '__fixtures__', name), 'utf8');
}
