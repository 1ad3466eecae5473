/**
 * `toolrx/testing/server`: a local stand-in for the OpenAI and Anthropic APIs, for driving the
 * real SDKs through toolrx's provider models in tests. Node only (`node:http`), so it lives apart
 * from `toolrx/testing`, which runs anywhere.
 */
export { startProviderServer, type ProviderApi, type ProviderRequest, type ProviderServer, type ScriptedReply } from "./provider-server.js";
