// Checking an API key a request carries (the server app's getUser({ apiKey })
// and getTeam({ apiKey })): the key is looked up by its full value, and one the
// service does not accept reads as no key at all.
import { isKnownError } from "../../../generated/known-error-guard.js";
import { signalOf, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { apiKeyFromWire, type ApiKey, type ApiKeyType, type WireApiKey } from "../objects/api-key.js";
import { answered } from "../wire.js";

/**
 * Looks a full key up (`POST /{user|team}-api-keys/check`). Every code of the
 * `API_KEY_NOT_VALID` family (expired, revoked, wrong type, not found, public)
 * means "no such key" and answers null, as in the reference; other errors are thrown.
 */
export async function checkApiKey(
  ctx: ClientAppContext,
  apiKey: string,
  options: { readonly type?: ApiKeyType } & CallOptions = {},
): Promise<ApiKey | null> {
  const type = options?.type ?? "user";
  if (type !== "user" && type !== "team") {
    throw new StackConfigurationError(`checkApiKey: type must be "user" or "team", not ${JSON.stringify(type)}.`);
  }
  if (typeof apiKey !== "string") {
    throw new StackConfigurationError("checkApiKey needs the full API key as a string.");
  }
  const init = { body: { api_key: apiKey }, ...signalOf(options) };
  let data: WireApiKey | undefined;
  try {
    data =
      type === "user"
        ? (await ctx.client.send("POST /user-api-keys/check", init)).data
        : (await ctx.client.send("POST /team-api-keys/check", init)).data;
  } catch (error) {
    if (isKnownError(error, "API_KEY_NOT_VALID")) return null;
    throw error;
  }
  // A checked key may belong to anyone, so its updates name its real owner, not `me`.
  return apiKeyFromWire(ctx, answered(data, `POST /${type}-api-keys/check`)) as ApiKey;
}
