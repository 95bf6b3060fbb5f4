// The calls behind API keys (SPEC §3-§5): listing, creating, checking,
// updating and revoking keys over /user-api-keys and /team-api-keys. The
// reference sends `update()` in camelCase, which the service ignores; we send
// the wire's snake_case (wire contract §14).
import { isKnownError } from "../../../generated/known-error-guard.js";
import type { components } from "../../../generated/schema.js";
import { StackAssertionError, StackConfigurationError, signalOf, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { answered } from "../wire.js";
import type {
  ApiKey,
  ApiKeyCreationOptions,
  ApiKeyEndpoint,
  ApiKeyInvalidReason,
  ApiKeyType,
  ApiKeyUpdateOptions,
  TeamApiKey,
  TeamApiKeyFirstView,
  TeamApiKeyMethods,
  UserApiKey,
  UserApiKeyFirstView,
  UserApiKeyMethods,
} from "./api-key.js";

type Schemas = components["schemas"];
type WireApiKey = Schemas["UserApiKey"] | Schemas["TeamApiKey"] | Schemas["UserApiKeyFirstView"] | Schemas["TeamApiKeyFirstView"];

/**
 * SPEC §5: a key belongs to a user or to a team, never both; a `teamId` chooses
 * the team endpoint, anything else the user endpoint (`me` when no user is named).
 */
export function apiKeyEndpointFor(input: { readonly userId?: string; readonly teamId?: string }): ApiKeyEndpoint {
  const userId = input?.userId ?? undefined;
  const teamId = input?.teamId ?? undefined;
  if (userId !== undefined && teamId !== undefined) {
    throw new StackConfigurationError(
      `An API key belongs to a user or to a team, not both; this request names user ${JSON.stringify(userId)} and team ${JSON.stringify(teamId)}. Pass only userId for a user key or only teamId for a team key.`,
    );
  }
  if (teamId !== undefined) return { type: "team", path: "/team-api-keys", teamId };
  return { type: "user", path: "/user-api-keys", userId: userId ?? "me" };
}

/** The current user's keys (`user_id=me`). */
export function userApiKeyMethods(ctx: ClientAppContext): UserApiKeyMethods {
  const owner = apiKeyEndpointFor({ userId: "me" });
  return {
    listApiKeys: async (options) => (await listKeys(ctx, owner, options)) as UserApiKey[],
    createApiKey: async (options) => (await createKey(ctx, owner, options)) as UserApiKeyFirstView,
  };
}

/** A team's keys; the user needs the team's `$manage_api_keys` permission. */
export function teamApiKeyMethods(ctx: ClientAppContext, teamId: string): TeamApiKeyMethods {
  const owner = apiKeyEndpointFor({ teamId });
  return {
    listApiKeys: async (options) => (await listKeys(ctx, owner, options)) as TeamApiKey[],
    createApiKey: async (options) => (await createKey(ctx, owner, options)) as TeamApiKeyFirstView,
  };
}

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

async function listKeys(
  ctx: ClientAppContext,
  owner: ApiKeyEndpoint,
  call: CallOptions | undefined,
): Promise<ApiKey<ApiKeyType, boolean>[]> {
  const data =
    owner.type === "user"
      ? (await ctx.client.send("GET /user-api-keys", { params: { query: { user_id: owner.userId } }, ...signalOf(call) })).data
      : (await ctx.client.send("GET /team-api-keys", { params: { query: { team_id: owner.teamId } }, ...signalOf(call) })).data;
  const items = answered(data, `GET ${owner.path}`).items;
  if (!Array.isArray(items)) throw new StackAssertionError(`GET ${owner.path} answered without an items list`);
  return items.map((wire) => apiKeyFromWire(ctx, wire, owner));
}

async function createKey(
  ctx: ClientAppContext,
  owner: ApiKeyEndpoint,
  options: ApiKeyCreationOptions & CallOptions,
): Promise<ApiKey<ApiKeyType, boolean>> {
  if (typeof options !== "object" || options === null) {
    throw new StackConfigurationError("createApiKey needs options: { description, expiresAt: Date | null, isPublic? }.");
  }
  const expiry = expiryMillis(options.expiresAt, "createApiKey");
  if (expiry === undefined) {
    throw new StackConfigurationError("createApiKey needs expiresAt: a Date, or null for a key that never expires.");
  }
  const common = {
    description: options.description,
    expires_at_millis: expiry,
    ...(options.isPublic === undefined ? {} : { is_public: options.isPublic }),
  };
  const data =
    owner.type === "user"
      ? (await ctx.client.send("POST /user-api-keys", { body: { user_id: owner.userId, ...common }, ...signalOf(options) })).data
      : (await ctx.client.send("POST /team-api-keys", { body: { team_id: owner.teamId, ...common }, ...signalOf(options) })).data;
  return apiKeyFromWire(ctx, answered(data, `POST ${owner.path}`), owner);
}

async function updateKey(
  ctx: ClientAppContext,
  owner: ApiKeyEndpoint,
  id: string,
  options: ApiKeyUpdateOptions & CallOptions,
): Promise<void> {
  if (typeof options !== "object" || options === null) {
    throw new StackConfigurationError("ApiKey.update needs options: { description?, expiresAt?: Date | null, revoked? }.");
  }
  // The service's update accepts only `description` and `revoked: true`; anything else is a SCHEMA_ERROR.
  if (options.expiresAt !== undefined) {
    throw new StackConfigurationError("ApiKey.update: the service cannot change a key's expiry; create a new key instead.");
  }
  const body = {
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.revoked === true ? { revoked: true as const } : {}),
  };
  const path = { api_key_id: id };
  if (owner.type === "user") {
    await ctx.client.send("PATCH /user-api-keys/{api_key_id}", {
      params: { path, query: { user_id: owner.userId } },
      body,
      ...signalOf(options),
    });
  } else {
    await ctx.client.send("PATCH /team-api-keys/{api_key_id}", {
      params: { path, query: { team_id: owner.teamId } },
      body,
      ...signalOf(options),
    });
  }
}

/** `Date` → millis, `null` stays null (no expiry), `undefined` means "not given". */
function expiryMillis(expiresAt: Date | null | undefined, method: string): number | null | undefined {
  if (expiresAt === undefined || expiresAt === null) return expiresAt;
  const millis = expiresAt instanceof Date ? expiresAt.getTime() : Number.NaN;
  if (!Number.isFinite(millis)) {
    throw new StackConfigurationError(`${method}: expiresAt must be a valid Date, or null for a key that never expires.`);
  }
  return millis;
}

/**
 * The reference's ApiKey object for a key as the service sends it. `owner` names
 * whom updates are sent for; by default the key's own user or team.
 */
export function apiKeyFromWire(ctx: ClientAppContext, wire: WireApiKey, owner?: ApiKeyEndpoint): ApiKey<ApiKeyType, boolean> {
  const ownership = ownershipOf(wire);
  const target = owner ?? apiKeyEndpointFor(ownership.type === "user" ? { userId: ownership.userId } : { teamId: ownership.teamId });
  const expiresAt = optionalDate(wire.expires_at_millis, "expires_at_millis");
  const manuallyRevokedAt = optionalDate(wire.manually_revoked_at_millis, "manually_revoked_at_millis") ?? null;
  const whyInvalid = (): ApiKeyInvalidReason | null => {
    // SPEC §4: revocation is reported before expiry for user and team keys.
    if (manuallyRevokedAt !== null) return "manually-revoked";
    if (expiresAt !== undefined && expiresAt.getTime() < ctx.env.now()) return "expired";
    return null;
  };
  const update = (options: ApiKeyUpdateOptions & CallOptions) => updateKey(ctx, target, wire.id, options);
  // The reference's members, no more and no fewer: `expiresAt` is a member (undefined) of a key that never
  // expires, as on the reference's keys, whose declaration also calls it optional (hence the assertion);
  // the wire's `is_public` is not a member (an app that needs it reads the key with `app.api`).
  return {
    id: wire.id,
    description: wire.description,
    expiresAt,
    manuallyRevokedAt,
    createdAt: requiredDate(wire.created_at_millis, "created_at_millis"),
    ...ownership,
    value: valueOf(wire.value),
    update,
    revoke: (options) => update({ revoked: true, ...signalOf(options) }),
    isValid: () => whyInvalid() === null,
    whyInvalid,
  } as ApiKey<ApiKeyType, boolean>;
}

function ownershipOf(wire: WireApiKey): { type: "user"; userId: string } | { type: "team"; teamId: string } {
  if (wire.type === "user" && typeof (wire as { user_id?: unknown }).user_id === "string") {
    return { type: "user", userId: (wire as { user_id: string }).user_id };
  }
  if (wire.type === "team" && typeof (wire as { team_id?: unknown }).team_id === "string") {
    return { type: "team", teamId: (wire as { team_id: string }).team_id };
  }
  throw new StackAssertionError(`API key ${String(wire.id)} has no owner the client understands (type ${JSON.stringify(wire.type)})`);
}

function valueOf(value: unknown): string | { readonly lastFour: string } {
  if (typeof value === "string") return value;
  const lastFour = (value as { last_four?: unknown } | null | undefined)?.last_four;
  if (typeof lastFour === "string") return { lastFour };
  throw new StackAssertionError("The service answered an API key without its value or last four characters");
}

function optionalDate(millis: number | null | undefined, field: string): Date | undefined {
  return millis === undefined || millis === null ? undefined : requiredDate(millis, field);
}

function requiredDate(millis: unknown, field: string): Date {
  if (typeof millis !== "number" || !Number.isFinite(millis)) {
    throw new StackAssertionError(`The service answered an API key whose ${field} is not a time in milliseconds`);
  }
  return new Date(millis);
}
