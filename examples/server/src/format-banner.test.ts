import { formatBanner, formatFirstStartSecrets, type BannerInput } from './format-banner';

const url = 'http://127.0.0.1:8080';
const input: BannerInput = {
  url,
  routes: [
    { model: 'responses-only', interfaces: ['responses', 'chat'] },
    { model: 'messages-too', interfaces: ['messages'] },
  ],
  demoKey: undefined,
  demoKeyGenerated: false,
  adminTokenSource: 'data-folder',
};

/** The banner's section for one interface, up to the next blank line. */
function section(banner: string, heading: string): string | undefined {
  return banner.split('\n\n').find(block => block.startsWith(heading));
}

describe('formatBanner', () => {
  it('gives each interface a snippet with a model whose route serves it', () => {
    const banner = formatBanner(input);
    expect(section(banner, 'Responses interface')).toContain('"model":"responses-only"');
    expect(section(banner, 'Responses interface')).toContain("model: 'responses-only'");
    expect(section(banner, 'Messages interface')).toContain('"model":"messages-too"');
    expect(section(banner, 'Messages interface')).toContain("model: 'messages-too'");
    expect(section(banner, 'Chat Completions interface')).toContain('"model":"responses-only"');
    expect(banner).toContain('  - responses-only (responses, chat)\n  - messages-too (messages)');
  });

  it('leaves out the snippet of an interface no route serves', () => {
    const banner = formatBanner({ ...input, routes: [{ model: 'chat-only', interfaces: ['chat'] }] });
    expect(section(banner, 'Responses interface')).toBeUndefined();
    expect(section(banner, 'Messages interface')).toBeUndefined();
    expect(banner).not.toContain('/v1/responses');
    expect(banner).not.toContain('new Anthropic');
    expect(section(banner, 'Chat Completions interface')).toContain('"model":"chat-only"');
  });

  it('points at the panel for the admin token, and says how to get a new one when it was shown on an earlier start', () => {
    const banner = formatBanner(input);
    expect(banner).toContain(`Panel: ${url}/panel (log in with the admin token`);
    expect(banner).toContain(
      `Admin token: the one shown on this data folder's first start (only its digest is kept); log in with it at ${url}/panel. Lost it? ./scripts/start.sh admin-token rotate prints a new one.`,
    );
    expect(formatBanner({ ...input, adminTokenSource: 'created' })).toContain(`Admin token: created on this start and shown once on stderr; log in with it at ${url}/panel`);
    expect(formatBanner({ ...input, adminTokenSource: 'given' })).toContain('SIGNALBOX_ADMIN_TOKEN');
    expect(formatBanner({ ...input, adminTokenSource: 'created' })).not.toContain('admin-token rotate');
  });

  it('never holds a secret: the ones made on this start are for stderr only', () => {
    const demoKey = `sbx-${'d'.repeat(40)}`;
    const adminToken = `sbx-admin-${'a'.repeat(48)}`;
    expect(formatBanner({ ...input, demoKey, demoKeyGenerated: true, adminTokenSource: 'created' })).not.toContain(demoKey);
    expect(formatFirstStartSecrets({ url, demoKey, adminToken })).toBe(
      `\nDemo API key (shown once):\n  export SIGNALBOX_API_KEY=${demoKey}\nAdmin token, to log in at ${url}/panel and for ${url}/admin (shown once):\n  ${adminToken}\n\n`,
    );
    expect(formatFirstStartSecrets({ url })).toBe('');
  });
});
