import type { Config } from '../core/config';
import { ssrfAllowlist } from '../net/ssrf';
import type { ChatModel } from './model';
import { OpenAiChatModel } from './openai';
import { ScriptedChatModel } from './scripted';

/** The configured chat model: the OpenAI-compatible client when CHAT_MODEL_BASE_URL is set, else the scripted one. */
export function chatModelFromConfig(config: Config | undefined): ChatModel {
  if (!config?.CHAT_MODEL_BASE_URL) return new ScriptedChatModel();
  return new OpenAiChatModel({
    baseUrl: config.CHAT_MODEL_BASE_URL,
    apiKey: config.CHAT_MODEL_API_KEY,
    model: config.CHAT_MODEL,
    timeoutMs: config.CHAT_MODEL_TIMEOUT_MS,
    retries: config.CHAT_MODEL_RETRIES,
    ssrf: { allow: ssrfAllowlist(config.SSRF_ALLOWLIST) },
  });
}
