import type { GenerationRequest, JSONObject, ReasoningEffort, Translated, TranslationWarning } from '@signalbox/core';
import { getGeminiOptions } from '../gemini-options';
import { jsonSchemaToGeminiSchema } from '../schema/json-schema-to-gemini-schema';
import { encodeGeminiContents, encodeSystemInstruction } from './encode-gemini-contents';

const LEVELS: Record<Exclude<ReasoningEffort, 'none'>, string> = {
  minimal: 'MINIMAL',
  low: 'LOW',
  medium: 'MEDIUM',
  high: 'HIGH',
  xhigh: 'HIGH',
  max: 'HIGH',
};

/**
 * IR → the upstream's `generateContent` body. The model and the framing go in the path
 * (`upstreamCallPath`), so the body names neither. A Gemini client's own settings
 * (`providerOptions['google-gemini']`: safety settings, built-in tools, cached content) go back
 * where they were; a client of another protocol asking for reasoning gets thought parts.
 * @see https://ai.google.dev/api/generate-content#request-body
 */
export function encodeGeminiRequest(request: GenerationRequest, _upstreamModel: string): Translated<JSONObject> {
  const warnings: TranslationWarning[] = [];
  const own = getGeminiOptions(request) ?? {};
  const system = encodeSystemInstruction(request, warnings);
  const body: JSONObject = { contents: encodeGeminiContents(request.messages, warnings) };
  if (system.length > 0) body.systemInstruction = { parts: system };
  const tools = encodeTools(request, own);
  if (tools.length > 0) body.tools = tools;
  const toolConfig = encodeToolConfig(request);
  if (toolConfig) body.toolConfig = toolConfig;
  if (own.safetySettings !== undefined) body.safetySettings = own.safetySettings;
  if (own.cachedContent !== undefined) body.cachedContent = own.cachedContent;
  if (own.labels !== undefined) body.labels = own.labels;
  const generationConfig = encodeGenerationConfig(request, own);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return { value: body, warnings };
}

/** Function declarations, each schema in the OpenAPI subset when it fits, else as JSON Schema. */
function encodeTools(request: GenerationRequest, own: JSONObject): JSONObject[] {
  const declarations = (request.tools ?? []).map(tool => {
    const parameters = jsonSchemaToGeminiSchema(tool.inputSchema);
    return {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      ...(parameters ? { parameters } : { parametersJsonSchema: tool.inputSchema }),
    };
  });
  const builtIn = Array.isArray(own.tools) ? (own.tools as JSONObject[]) : [];
  return [...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []), ...builtIn];
}

function encodeToolConfig(request: GenerationRequest): JSONObject | undefined {
  const choice = request.toolChoice;
  if (!choice || !request.tools?.length) return undefined;
  switch (choice.type) {
    case 'auto':
      return { functionCallingConfig: { mode: 'AUTO' } };
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    case 'required':
      return { functionCallingConfig: { mode: 'ANY' } };
    case 'tool':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  }
}

function encodeGenerationConfig(request: GenerationRequest, own: JSONObject): JSONObject {
  const config: JSONObject = { ...(typeof own.generationConfig === 'object' && own.generationConfig !== null ? (own.generationConfig as JSONObject) : {}) };
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) config.stopSequences = request.stopSequences;
  const format = request.responseFormat;
  if (format?.type === 'json-object') config.responseMimeType = 'application/json';
  if (format?.type === 'json-schema') Object.assign(config, { responseMimeType: 'application/json', responseJsonSchema: format.schema });
  const thinking = encodeThinking(request, own);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/** Reasoning → `thinkingConfig`: a budget as `thinkingBudget`, else an effort as `thinkingLevel`; `none` a budget of 0. */
function encodeThinking(request: GenerationRequest, own: JSONObject): JSONObject | undefined {
  const { reasoning } = request;
  const includeThoughts = typeof own.includeThoughts === 'boolean' ? own.includeThoughts : undefined;
  if (!reasoning) return includeThoughts === undefined ? undefined : { includeThoughts };
  if (reasoning.effort === 'none') return { thinkingBudget: 0 };
  const thinking: JSONObject = { includeThoughts: includeThoughts ?? true };
  if (reasoning.budgetTokens !== undefined) thinking.thinkingBudget = reasoning.budgetTokens;
  else if (reasoning.effort !== undefined) thinking.thinkingLevel = LEVELS[reasoning.effort];
  return thinking;
}
