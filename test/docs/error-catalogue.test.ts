import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderErrorCatalogue } from './render-error-catalogue';

const page = join(__dirname, '../../docs/errors.md');

describe('docs/errors.md', () => {
  it('lists every service code with its status, source, meaning and retry rule', () => {
    const expected = renderErrorCatalogue();
    if (process.env.UPDATE_DOCS === '1') writeFileSync(page, expected);
    // Regenerate with: UPDATE_DOCS=1 pnpm exec jest test/docs
    expect(readFileSync(page, 'utf8')).toBe(expected);
  });
});
