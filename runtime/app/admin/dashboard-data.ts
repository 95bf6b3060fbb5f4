// What the dashboard reads besides the project: the token that opens the
// webhook settings at Svix, and the usage metrics. The reference SDK offers
// these only as React hooks; here they are plain calls.
import { signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { answered } from "../wire.js";

/**
 * The overview figures as the service sends them (`total_users`, `daily_users`,
 * `daily_active_users`, `users_by_country`, `recently_registered`,
 * `recently_active`, `login_methods`, ...). The shape is not a contract.
 */
export type AdminMetrics = Readonly<Record<string, unknown>>;

/** `POST /webhooks/svix-token {}`: a short-lived token for the webhook portal. */
export async function getSvixToken(ctx: ClientAppContext, options?: CallOptions): Promise<string> {
  const { data } = await ctx.client.send("POST /webhooks/svix-token", { body: {}, ...signalOf(options) });
  const token = answered(data, "POST /webhooks/svix-token").token;
  if (typeof token !== "string") throw new StackAssertionError("POST /webhooks/svix-token answered without a token");
  return token;
}

/** `GET /internal/metrics`. */
export async function getMetrics(ctx: ClientAppContext, options?: CallOptions): Promise<AdminMetrics> {
  const { data } = await ctx.client.send("GET /internal/metrics", signalOf(options));
  const metrics: unknown = answered(data, "GET /internal/metrics");
  if (typeof metrics !== "object" || Array.isArray(metrics))
    throw new StackAssertionError("GET /internal/metrics answered something other than an object");
  return metrics as AdminMetrics;
}
