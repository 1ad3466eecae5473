/**
 * Running a provider model function once, as the agent loop would: a request with the
 * conversation, the tools and a signal, and the model's events collected or watched live.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { filter, from, lastValueFrom, toArray, type Observable } from "rxjs";
import { z } from "zod";
import type { Model, ModelEvent, ModelRequest } from "../../src/agent/model/model.js";
import type { Message } from "../../src/tool/message.js";
import { defineTool, ok } from "../../src/index.js";
import { startFakeProviders, type FakeProviders } from "./fake-providers.js";

export const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

export const ASK: readonly Message[] = [{ role: "user", content: "Weather in Paris?" }];

/** A request for turn 0; its signal is the returned controller's. */
export function requestFor(messages: readonly Message[] = ASK, tools = [weather]): { request: ModelRequest; controller: AbortController } {
  const controller = new AbortController();
  return { request: { messages, tools, turn: 0, signal: controller.signal }, controller };
}

/**
 * The model's events but the live input ones (`tool_input_started`/`_delta`): these tests are
 * about whole calls; test/agent/turn/live-input.test.ts reads the live input.
 */
export function events$(model: Model, request: ModelRequest = requestFor().request): Observable<ModelEvent> {
  return from(model(request)).pipe(filter((e) => e.type !== "tool_input_started" && e.type !== "tool_input_delta"));
}

/** Every event of one turn, once the model completes. */
export function collect(model: Model, request?: ModelRequest): Promise<ModelEvent[]> {
  return lastValueFrom(events$(model, request).pipe(toArray()));
}

/** What one turn gave before it ended: its events, and its error if it errored. */
export function settle(model: Model, request?: ModelRequest): Promise<{ events: ModelEvent[]; error?: unknown }> {
  return new Promise((resolve) => {
    const events: ModelEvent[] = [];
    events$(model, request).subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error }),
      complete: () => resolve({ events }),
    });
  });
}

/** The error the model's Observable errors with (fails if it completes). */
export async function errorOf(model: Model, request?: ModelRequest): Promise<unknown> {
  const { events, error } = await settle(model, request);
  if (error === undefined) throw new Error(`expected the model to error; it completed with ${JSON.stringify(events)}`);
  return error;
}

/** Resolves once `condition` holds, checking every few milliseconds. */
export async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The fake providers and real SDK clients pointed at them, without retries (a test's error status must reach it at once). */
export interface Fake {
  server: FakeProviders;
  openai: OpenAI;
  anthropic: Anthropic;
}

export async function startFake(): Promise<Fake> {
  const server = await startFakeProviders();
  const { OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL } = server.env;
  return {
    server,
    openai: new OpenAI({ apiKey: OPENAI_API_KEY, baseURL: OPENAI_BASE_URL, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: ANTHROPIC_API_KEY, baseURL: ANTHROPIC_BASE_URL, maxRetries: 0 }),
  };
}

/** Subscribes, waits for the first event matching `first`, then unsubscribes; resolves with the events seen. */
export function unsubscribeAfter(model: Model, first: (event: ModelEvent) => boolean, request?: ModelRequest): Promise<ModelEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: ModelEvent[] = [];
    const subscription = events$(model, request).subscribe({
      next: (event) => {
        seen.push(event);
        if (first(event)) {
          subscription.unsubscribe();
          resolve(seen);
        }
      },
      error: reject,
      complete: () => reject(new Error(`the model completed before the awaited event; saw ${JSON.stringify(seen)}`)),
    });
  });
}
