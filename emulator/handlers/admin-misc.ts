// What the dashboard reads besides the project: the usage metrics
// (`/internal/metrics`, metrics.ts), and the token of the webhook portal
// (`/webhooks/svix-token`), which the emulator makes up (it has no Svix).
import type { Handlers } from "../engine/context.js";
import { randomString } from "../engine/tokens.js";
import { metricsOf } from "./metrics.js";

export const adminMiscHandlers = {
  getMetrics: (request, ctx) => ({ body: metricsOf(request, ctx) }),

  /** A fresh portal token per request, in the shape of Svix's app-portal tokens; it opens nothing. */
  createSvixToken: () => ({ status: 201, body: { token: `appsk_${randomString(32)}` } }),
} satisfies Handlers;
