import type { UpstreamKind } from '@signalbox/core';
import type * as AzureOpenAIKindModule from '@signalbox/kind-azure-openai';
import type * as BedrockKindModule from '@signalbox/kind-bedrock';
import type * as VertexKindModule from '@signalbox/kind-vertex';
import { kinds } from './codecs';

const mockLoadedKinds: string[] = [];
jest.mock('@signalbox/kind-azure-openai', () => {
  mockLoadedKinds.push('azure-openai');
  return jest.requireActual('@signalbox/kind-azure-openai');
});
jest.mock('@signalbox/kind-bedrock', () => {
  mockLoadedKinds.push('bedrock');
  return jest.requireActual('@signalbox/kind-bedrock');
});
jest.mock('@signalbox/kind-vertex', () => {
  mockLoadedKinds.push('vertex');
  return jest.requireActual('@signalbox/kind-vertex');
});

function actualKinds(): UpstreamKind[] {
  return [
    jest.requireActual<typeof AzureOpenAIKindModule>('@signalbox/kind-azure-openai').azureOpenAIKind,
    jest.requireActual<typeof BedrockKindModule>('@signalbox/kind-bedrock').bedrockKind,
    jest.requireActual<typeof VertexKindModule>('@signalbox/kind-vertex').vertexKind,
  ];
}

describe("the example server's upstream kinds", () => {
  it('are not loaded until a config names one, and then only the one named', () => {
    expect(kinds.map(kind => kind.name)).toEqual(['azure-openai', 'bedrock', 'vertex']);
    expect(mockLoadedKinds).toEqual([]);
    const bedrock = kinds.find(kind => kind.name === 'bedrock')!;
    expect(bedrock.checkAuth({ type: 'aws', region: 'us-east-1' })).toEqual([]);
    expect(bedrock.checkAuth({ type: 'nonsense' }).length).toBeGreaterThan(0);
    expect(mockLoadedKinds).toEqual(['bedrock']);
  });

  it("stand in with each package's own name and protocols, and give its answers", () => {
    const actual = actualKinds();
    expect(kinds.map(({ name, protocols }) => ({ name, protocols }))).toEqual(actual.map(({ name, protocols }) => ({ name, protocols })));
    for (const [index, kind] of kinds.entries()) {
      expect(kind.checkAuth(undefined)).toEqual(actual[index]!.checkAuth(undefined));
      expect(kind.checkAuth({ type: 'nonsense' })).toEqual(actual[index]!.checkAuth({ type: 'nonsense' }));
    }
  });
});
