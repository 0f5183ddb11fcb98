import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYAML } from 'yaml';
import { readConfigFilePanel } from '../../examples/server/src/read-config-file-panel';

const root = join(__dirname, '../..');

/** The ```yaml blocks of a document that set up the panel's single sign-on. */
function panelBlocks(document: string): string[] {
  const blocks = readFileSync(join(root, document), 'utf8').match(/```yaml\n[\s\S]*?```/g) ?? [];
  return blocks.map(block => block.slice('```yaml\n'.length, -3)).filter(block => block.startsWith('panel:'));
}

describe('the single sign-on examples in the docs', () => {
  it.each(['README.md', 'docs/deploy.md'])('%s shows a panel.sso section the example server accepts', document => {
    const blocks = panelBlocks(document);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const panel = readConfigFilePanel(document, (parseYAML(block) as { panel: unknown }).panel);
      expect(panel?.sso?.rules.length).toBeGreaterThan(0);
    }
  });
});
