// What sends requests, loaded on first use rather than with the app: the
// pipeline (headers, tokens, retries, answers), the runtime's own calls, and the
// refresh-token grant. createStackClient starts loading it as the client is made
// and hands it what it resolved (runtime/client.ts).
import { guardedHooks } from "./observe.js";
import { createPipeline, type Pipeline, type PipelineOptions } from "./pipeline.js";
import { refreshWithTokenEndpoint } from "./refresh.js";
import { createSend, type Send } from "./send.js";
import type { RefreshAccessToken } from "./session.js";

export interface Engine {
  readonly pipeline: Pipeline;
  readonly send: Send;
  readonly refresh: RefreshAccessToken;
}

export function createEngine(options: PipelineOptions): Engine {
  // Only the hooks the app gave, each guarded: without one, no event is made for it.
  const { onRequest, onRetry } = options.policy.hooks;
  const guarded = guardedHooks({ onRequest, onRetry });
  const hooks = { onRequest: onRequest ? guarded.onRequest : undefined, onRetry: onRetry ? guarded.onRetry : undefined };
  const o: PipelineOptions = { ...options, policy: { ...options.policy, hooks } };
  const pipeline = createPipeline(o);
  return { pipeline, send: createSend(pipeline), refresh: refreshWithTokenEndpoint(o) };
}
