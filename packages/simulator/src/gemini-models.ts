import { readGeminiContents } from './read-gemini-contents';
import { readDeclarations } from './read-gemini-request';
import { asRecord } from './read-text-content';
import { tokensOf } from './prompt-cache-usage';
import { isSimulatorError, simulatorError, type SimulatorError } from './simulator-error';

/** The models `GET /v1beta/models` lists (the simulator answers any model name on the generation methods). */
const GEMINI_MODELS: readonly { id: string; displayName: string; thinking: boolean }[] = [
  { id: 'gemini-2.5-pro', displayName: 'Gemini 2.5 Pro', thinking: true },
  { id: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', thinking: true },
  { id: 'gemini-2.5-flash-lite', displayName: 'Gemini 2.5 Flash-Lite', thinking: true },
  { id: 'gemini-3-pro-preview', displayName: 'Gemini 3 Pro Preview', thinking: true },
  { id: 'gemini-3-flash-preview', displayName: 'Gemini 3 Flash Preview', thinking: true },
  { id: 'gemini-3.1-pro-preview', displayName: 'Gemini 3.1 Pro Preview', thinking: true },
  { id: 'gemini-3.1-flash-lite', displayName: 'Gemini 3.1 Flash-Lite', thinking: true },
  { id: 'gemini-3.5-flash', displayName: 'Gemini 3.5 Flash', thinking: true },
  { id: 'gemini-3.5-flash-lite', displayName: 'Gemini 3.5 Flash-Lite', thinking: true },
];

/** How much of a model name a 404 quotes. */
const QUOTED_NAME_LENGTH = 80;

/**
 * `GET /v1beta/models`: every listed model in the API's `Model` shape, on one page.
 * @see https://ai.google.dev/api/models#method:-models.list
 */
export function listGeminiModels(): Record<string, unknown> {
  return { models: GEMINI_MODELS.map(describeModel) };
}

/** `GET /{version}/models/{model}`: one listed model, or the API's 404 naming the version. */
export function getGeminiModel(model: string, version: string): Record<string, unknown> | SimulatorError {
  const found = GEMINI_MODELS.find(entry => entry.id === model);
  if (found !== undefined) return describeModel(found);
  return simulatorError(404, `models/${model.slice(0, QUOTED_NAME_LENGTH)} is not found for API version ${version}, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`);
}

/**
 * `POST /v1beta/models/{model}:countTokens`: the prompt's tokens, counted as generation counts them,
 * from `contents` or a whole `generateContentRequest`.
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
 */
export function countGeminiTokens(body: Record<string, unknown>): Record<string, unknown> | SimulatorError {
  const request = asRecord(body.generateContentRequest) ?? body;
  const prompt = readGeminiContents(request, readDeclarations(request.tools));
  if (isSimulatorError(prompt)) return prompt;
  const totalTokens = Math.max(1, tokensOf(prompt.characters));
  return { totalTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }] };
}

function describeModel(model: (typeof GEMINI_MODELS)[number]): Record<string, unknown> {
  return {
    name: `models/${model.id}`,
    version: model.id.replace(/^gemini-/, ''),
    displayName: model.displayName,
    description: `${model.displayName}, simulated.`,
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
    temperature: 1,
    topP: 0.95,
    topK: 64,
    maxTemperature: 2,
    thinking: model.thinking,
  };
}
