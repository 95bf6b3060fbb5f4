// A server user's API keys (SPEC §3-§5): listed and created for that user's id.
// Objects, validity rules (manually revoked first, then expired) and updates
// are the client's `apiKeyFromWire`; only the owner differs from `me`.
import { requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import type { ApiKeyCreationOptions, UserApiKey, UserApiKeyFirstView, UserApiKeyMethods } from "../objects/api-key.js";
import { apiKeyEndpointFor, apiKeyFromWire } from "../objects/api-key.js";
import { answered, itemsOf } from "../wire.js";

export function serverUserApiKeyMethods(ctx: ClientAppContext, userId: string): UserApiKeyMethods {
  const owner = apiKeyEndpointFor({ userId });
  return {
    async listApiKeys(options) {
      const { data } = await ctx.client.send("GET /user-api-keys", { params: { query: { user_id: userId } }, ...signalOf(options) });
      return itemsOf(data, "GET /user-api-keys").map((wire) => apiKeyFromWire(ctx, wire, owner) as UserApiKey);
    },
    async createApiKey(options: ApiKeyCreationOptions<"user"> & CallOptions) {
      requireOptions(options, "createApiKey", "{ description, expiresAt: Date | null, isPublic? }");
      const { data } = await ctx.client.send("POST /user-api-keys", {
        body: {
          user_id: userId,
          description: options.description,
          expires_at_millis: expiryMillis(options.expiresAt),
          ...(options.isPublic !== undefined && { is_public: options.isPublic }),
        },
        ...signalOf(options),
      });
      return apiKeyFromWire(ctx, answered(data, "POST /user-api-keys"), owner) as UserApiKeyFirstView;
    },
  };
}

/** `null` is a key that never expires; anything but a valid Date or null is refused before sending. */
function expiryMillis(expiresAt: Date | null): number | null {
  if (expiresAt === null) return null;
  const millis = expiresAt instanceof Date ? expiresAt.getTime() : Number.NaN;
  if (!Number.isFinite(millis)) {
    throw new StackConfigurationError("createApiKey needs expiresAt: a valid Date, or null for a key that never expires.");
  }
  return millis;
}
