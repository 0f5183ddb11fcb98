import { composeForeignFields, type ForeignFieldsSource } from './compose-foreign-fields';

const alpha: ForeignFieldsSource = {
  generationPath: '/v1/alpha',
  signatureFields: { turns: 'the conversation', limit: 'the output limit' },
  foreignFieldHints: { 'the conversation': 'the conversation goes in `turns`', 'the output limit': 'the output limit is `limit`' },
};
const beta: ForeignFieldsSource = {
  generationPath: '/v1/beta',
  signatureFields: { prompt: 'the conversation', limit: 'the output limit', seeds: 'the number of answers' },
  foreignFieldHints: { 'the conversation': 'the conversation goes in `prompt`' },
};
const gamma: ForeignFieldsSource = { generationPath: '/v1/gamma', signatureFields: { prompt: 'the conversation', stops: 'stop sequences' } };

describe('composeForeignFields', () => {
  const [forAlpha, forBeta, forGamma] = composeForeignFields([alpha, beta, gamma]);

  it("gives each endpoint the others' signature fields, in their order, each with every path that takes it", () => {
    expect(forAlpha!.path).toBe('/v1/alpha');
    expect([...forAlpha!.fields]).toEqual([
      ['prompt', { paths: ['/v1/beta', '/v1/gamma'], instead: 'the conversation goes in `turns`' }],
      ['seeds', { paths: ['/v1/beta'] }],
      ['stops', { paths: ['/v1/gamma'] }],
    ]);
  });

  it('leaves out the fields an endpoint declares itself, even where another protocol declares them too', () => {
    expect([...forBeta!.fields.keys()]).toEqual(['turns', 'stops']);
    expect(forBeta!.fields.get('turns')).toEqual({ paths: ['/v1/alpha'], instead: 'the conversation goes in `prompt`' });
    expect([...forGamma!.fields.keys()]).toEqual(['turns', 'limit', 'seeds']);
  });

  it('gives a field no hint where the endpoint has none for what it carries', () => {
    expect(forGamma!.fields.get('limit')).toEqual({ paths: ['/v1/alpha', '/v1/beta'] });
  });

  it('refuses nothing on the endpoint of a gateway with one protocol', () => {
    expect(composeForeignFields([alpha])[0]!.fields.size).toBe(0);
  });
});
