import {
  createValidationError,
  invalidParameter,
  isJSONObject,
  refuseForeignFields,
  unsupportedParameter,
  type DecodeOptions,
  type GenerationRequest,
  type JSONObject,
  type ReasoningEffort,
  type ResponseFormat,
  type TextPart,
  type ToolChoice,
  type ToolDefinition,
  type Translated,
  type TranslationWarning,
} from '@signalbox/core';
import { GEMINI_PROTOCOL } from '../gemini-options';
import { geminiSchemaToJSONSchema } from '../schema/gemini-schema-to-json-schema';
import { decodeGeminiContents } from './decode-gemini-contents';
import { geminiRequestSchema, type GeminiGenerationConfig, type GeminiRequest } from './gemini-request-schema';
import { readCommonGeminiRequest } from './read-common-gemini-request';

const OWN_FIELDS = new Set(Object.keys(geminiRequestSchema.shape));

/** Generation settings with no IR slot, kept under their wire names for a Gemini upstream. */
const GEMINI_ONLY_CONFIG = ['topK', 'seed', 'presencePenalty', 'frequencyPenalty', 'responseLogprobs', 'logprobs', 'responseModalities', 'mediaResolution', 'speechConfig'];

/**
 * Validates a Gemini client's body and converts it to the IR; the model and whether it streams
 * come from the path (`options.endpoint`). Fields of the gateway's other endpoints → 400 naming
 * where they belong; what the IR cannot carry for every upstream (`safetySettings`, built-in tools,
 * `cachedContent`, `topK`…) is kept in `providerOptions['google-gemini']` for a Gemini upstream.
 * @see https://ai.google.dev/api/generate-content#method:-models.generatecontent
 */
export function decodeGeminiRequest(body: unknown, options: DecodeOptions = {}): Translated<GenerationRequest> {
  if (!isJSONObject(body)) throw createValidationError([{ path: [], message: 'The body must be a JSON object' }]);
  refuseForeignFields(body, options, OWN_FIELDS);
  const wire = readCommonGeminiRequest(body) ?? parseRequest(body);
  const warnings: TranslationWarning[] = [];
  const config = wire.generationConfig ?? {};
  if (config.candidateCount !== undefined && config.candidateCount > 1) {
    throw unsupportedParameter('generationConfig.candidateCount', 'the gateway returns one candidate per request');
  }
  const request: GenerationRequest = {
    model: modelOf(wire, options),
    system: systemOf(wire),
    messages: decodeGeminiContents(wire.contents, warnings),
    stream: options.endpoint?.stream === true,
    ...(config.maxOutputTokens !== undefined && { maxOutputTokens: config.maxOutputTokens }),
    ...(config.temperature !== undefined && { temperature: config.temperature }),
    ...(config.topP !== undefined && { topP: config.topP }),
    ...(config.stopSequences !== undefined && { stopSequences: config.stopSequences }),
    ...toolsOf(wire),
    ...reasoningOf(config),
    ...responseFormatOf(config),
  };
  const own = providerOptionsOf(wire, config, options);
  if (Object.keys(own).length > 0) request.providerOptions = { [GEMINI_PROTOCOL]: own };
  return { value: request, warnings };
}

function parseRequest(body: JSONObject): GeminiRequest {
  const result = geminiRequestSchema.safeParse(body);
  if (!result.success) throw createValidationError(result.error.issues);
  return result.data;
}

/** The model the path names, else the body's; `models/` is the resource prefix, not part of the ID. */
function modelOf(wire: GeminiRequest, options: DecodeOptions): string {
  const named = options.endpoint?.model ?? wire.model;
  if (named === undefined || named === '') throw invalidParameter('model', 'name the model in the path: /v1beta/models/{model}:generateContent');
  return named.replace(/^models\//, '');
}

function systemOf(wire: GeminiRequest): TextPart[] {
  return (wire.systemInstruction?.parts ?? []).flatMap((part, index) => {
    if (part.text === undefined) throw unsupportedParameter(['systemInstruction', 'parts', index], 'system instructions are text');
    return [{ type: 'text' as const, text: part.text }];
  });
}

function toolsOf(wire: GeminiRequest): Pick<GenerationRequest, 'tools' | 'toolChoice'> {
  const tools: ToolDefinition[] = [];
  for (const tool of wire.tools ?? []) {
    for (const declaration of tool.functionDeclarations ?? []) {
      const schema = declaration.parametersJsonSchema ?? (declaration.parameters && geminiSchemaToJSONSchema(declaration.parameters as JSONObject));
      tools.push({
        name: declaration.name,
        ...(declaration.description !== undefined && { description: declaration.description }),
        inputSchema: (schema as JSONObject | undefined) ?? { type: 'object', properties: {} },
      });
    }
  }
  const choice = toolChoiceOf(wire.toolConfig?.functionCallingConfig);
  return { ...(tools.length > 0 && { tools }), ...(choice && { toolChoice: choice }) };
}

/** `functionCallingConfig.mode` → IR: `ANY` with one allowed name is that tool. */
function toolChoiceOf(config: { mode?: string | undefined; allowedFunctionNames?: string[] | undefined } | undefined): ToolChoice | undefined {
  switch (config?.mode?.toUpperCase()) {
    case 'AUTO':
    case 'VALIDATED':
      return { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY': {
      const names = config?.allowedFunctionNames ?? [];
      return names.length === 1 ? { type: 'tool', name: names[0]! } : { type: 'required' };
    }
    default:
      return undefined;
  }
}

const LEVELS: Record<string, ReasoningEffort> = { MINIMAL: 'minimal', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

/** `thinkingConfig` → IR: a budget of 0 is no reasoning, -1 (dynamic) no budget; a level is an effort. */
function reasoningOf(config: GeminiGenerationConfig): Pick<GenerationRequest, 'reasoning'> {
  const thinking = config.thinkingConfig;
  if (!thinking) return {};
  const effort = thinking.thinkingLevel === undefined ? undefined : LEVELS[thinking.thinkingLevel.toUpperCase()];
  if (thinking.thinkingLevel !== undefined && effort === undefined) {
    throw invalidParameter('generationConfig.thinkingConfig.thinkingLevel', 'must be MINIMAL, LOW, MEDIUM or HIGH');
  }
  const budget = thinking.thinkingBudget;
  if (budget === 0) return { reasoning: { effort: 'none' } };
  const reasoning = { ...(effort && { effort }), ...(budget !== undefined && budget > 0 && { budgetTokens: budget }) };
  return Object.keys(reasoning).length > 0 ? { reasoning } : {};
}

function responseFormatOf(config: GeminiGenerationConfig): { responseFormat?: ResponseFormat } {
  const schema = config.responseJsonSchema ?? (config.responseSchema && geminiSchemaToJSONSchema(config.responseSchema as JSONObject));
  if (config.responseMimeType === 'application/json' || schema !== undefined) {
    return { responseFormat: schema ? { type: 'json-schema', schema: schema as JSONObject } : { type: 'json-object' } };
  }
  return config.responseMimeType === 'text/plain' ? { responseFormat: { type: 'text' } } : {};
}

/** What only a Gemini upstream can take: safety settings, built-in tools, cached content, Gemini-only settings. */
function providerOptionsOf(wire: GeminiRequest, config: GeminiGenerationConfig, options: DecodeOptions): JSONObject {
  const own: JSONObject = {};
  if (wire.safetySettings) own.safetySettings = wire.safetySettings as JSONObject[];
  const builtIn = (wire.tools ?? []).filter(tool => Object.keys(tool).some(key => key !== 'functionDeclarations'));
  if (builtIn.length > 0) own.tools = builtIn.map(({ functionDeclarations: _, ...rest }) => rest as JSONObject);
  if (wire.cachedContent !== undefined) own.cachedContent = wire.cachedContent;
  if (wire.labels !== undefined) own.labels = wire.labels;
  const kept: JSONObject = {};
  for (const name of GEMINI_ONLY_CONFIG) if (config[name] !== undefined) kept[name] = config[name] as JSONObject;
  if (Object.keys(kept).length > 0) own.generationConfig = kept;
  if (config.thinkingConfig?.includeThoughts !== undefined) own.includeThoughts = config.thinkingConfig.includeThoughts;
  if (options.endpoint?.query?.alt !== undefined) own.alt = options.endpoint.query.alt;
  return own;
}
