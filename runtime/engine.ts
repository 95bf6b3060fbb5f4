// What sends requests: the pipeline (headers, tokens, retries, answers), the
// runtime's own calls, and the refresh-token grant, made once per client
// (runtime/client.ts).
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
