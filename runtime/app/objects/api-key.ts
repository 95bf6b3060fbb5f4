// User and team API keys (SPEC §3-§5): the reference SDK's `ApiKey` objects over
// /user-api-keys and /team-api-keys, and the calls that list, create, update and
// revoke them. The reference sends `update()` in camelCase, which the service
// ignores; we send the wire's snake_case (wire contract §14).
import type { components } from "../../../generated/schema.js";
import { requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError, StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { answered, itemsOf } from "../wire.js";

/** Whose API key it is: a user's or a team's. */
export type ApiKeyType = "user" | "team";

/** Why a key no longer works (SPEC §4); `null` from `whyInvalid()` means it is valid. */
export type ApiKeyInvalidReason = "manually-revoked" | "expired";

/** An API key of a user or a team, as listed; `IsFirstView` is true only for the key just created, whose `value` is the whole secret (shown once). {@link UserApiKey} and {@link TeamApiKey} are its two kinds. */
export type ApiKey<Type extends ApiKeyType = ApiKeyType, IsFirstView extends boolean = false> = {
  readonly id: string;
  readonly description: string;
  /** Undefined for a key that never expires. */
  readonly expiresAt?: Date;
  /** Null while the key has not been revoked. */
  readonly manuallyRevokedAt?: Date | null;
  readonly createdAt: Date;
  /** The full key right after creation (shown this once); afterwards only its last four characters. */
  readonly value: IsFirstView extends true ? string : { readonly lastFour: string };
  /**
   * Changes the key's description, or revokes it with `revoked: true`
   * (`PATCH /user-api-keys/{api_key_id}` or `/team-api-keys/{api_key_id}`). This object keeps
   * showing the key as it was read. Giving `expiresAt` throws a StackConfigurationError.
   *
   * @example
   * ```ts
   * const [key] = await user.listApiKeys();
   * if (key !== undefined) {
   *   await key.update({ description: "CI deploy key (rotated)" });
   * }
   * ```
   */
  update(options: ApiKeyUpdateOptions<Type> & CallOptions): Promise<void>;
  /**
   * Revokes the key for good (`update({ revoked: true })`); a revoked key cannot be restored.
   *
   * @example
   * ```ts
   * const keys = await user.listApiKeys();
   * for (const key of keys) {
   *   if (key.description === "old laptop") await key.revoke();
   * }
   * ```
   */
  revoke(options?: CallOptions): Promise<void>;
  /**
   * Whether the key still works as read: not revoked and not past its expiry. Sends nothing.
   *
   * @example
   * ```ts
   * const keys = await user.listApiKeys();
   * const usable = keys.filter((key) => key.isValid());
   * console.log(`${usable.length} of ${keys.length} keys are valid`);
   * ```
   */
  isValid(): boolean;
  /**
   * Why the key no longer works: `"manually-revoked"` (checked first) or `"expired"`;
   * `null` when it is valid. Sends nothing.
   *
   * @example
   * ```ts
   * const keys = await user.listApiKeys();
   * for (const key of keys) {
   *   const reason = key.whyInvalid();
   *   if (reason !== null) console.log(`key …${key.value.lastFour} is ${reason}`);
   * }
   * ```
   */
  whyInvalid(): ApiKeyInvalidReason | null;
} & (
  | ("user" extends Type ? { readonly type: "user"; readonly userId: string } : never)
  | ("team" extends Type ? { readonly type: "team"; readonly teamId: string } : never)
);

/**
 * A user's API key, as `user.listApiKeys()` answers it: `value` shows its last four characters only.
 *
 * @interface
 */
export type UserApiKey = ApiKey<"user">;
/**
 * A user's API key just created (`user.createApiKey()`): `value` is the whole secret, shown this once.
 *
 * @interface
 */
export type UserApiKeyFirstView = ApiKey<"user", true>;
/**
 * A team's API key, as `team.listApiKeys()` answers it: `value` shows its last four characters only.
 *
 * @interface
 */
export type TeamApiKey = ApiKey<"team">;
/**
 * A team's API key just created (`team.createApiKey()`): `value` is the whole secret, shown this once.
 *
 * @interface
 */
export type TeamApiKeyFirstView = ApiKey<"team", true>;

// The type parameter only mirrors the reference's signature (`ApiKeyCreationOptions<"user">`).
/**
 * What a new user or team API key is made with (`createApiKey`).
 *
 * @example
 * ```ts
 * const options: ApiKeyCreationOptions<"user"> = {
 *   description: "CI deploy key",
 *   expiresAt: new Date(Date.now() + 90 * 24 * 60 * 60 * 1000),
 *   isPublic: false,
 * };
 * const key = await user.createApiKey(options);
 * ```
 */
export type ApiKeyCreationOptions<_Type extends ApiKeyType = ApiKeyType> = {
  /** A label for the key, shown in key lists. */
  readonly description: string;
  /** `null` makes a key that never expires. */
  readonly expiresAt: Date | null;
  /** Whether the key is public: one the secret scanner does not revoke when found in public. Default false. */
  readonly isPublic?: boolean;
};

/**
 * What `ApiKey.update` changes; fields left out stay as they are.
 *
 * @example
 * ```ts
 * const options: ApiKeyUpdateOptions<"team"> = { description: "Billing export key" };
 * const [key] = await team.listApiKeys();
 * if (key !== undefined) await key.update(options);
 * ```
 */
export type ApiKeyUpdateOptions<_Type extends ApiKeyType = ApiKeyType> = {
  /** The key's new description. */
  readonly description?: string;
  /** The service cannot change a key's expiry (it refuses `expires_at_millis`): giving one is a StackConfigurationError. */
  readonly expiresAt?: Date | null;
  /** Only `true` is sent; a revoked key cannot be restored. */
  readonly revoked?: boolean;
};

/** Which endpoint a key request goes to and for whom (SPEC §5). */
export type ApiKeyEndpoint =
  | { readonly type: "user"; readonly path: "/user-api-keys"; readonly userId: string }
  | { readonly type: "team"; readonly path: "/team-api-keys"; readonly teamId: string };

export interface UserApiKeyMethods {
  /**
   * The user's API keys, revoked and expired ones included (`GET /user-api-keys`); each shows
   * only the last four characters of its value.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * const keys = await user.listApiKeys();
   * for (const key of keys) {
   *   console.log(key.description, `…${key.value.lastFour}`, key.isValid() ? "valid" : key.whyInvalid());
   * }
   * ```
   */
  listApiKeys(options?: CallOptions): Promise<UserApiKey[]>;
  /**
   * Creates an API key for the user (`POST /user-api-keys`) and returns it with its full
   * `value`, which is shown this once. The project must allow user API keys.
   *
   * @example
   * ```ts
   * const key = await user.createApiKey({
   *   description: "CI deploy key",
   *   expiresAt: null, // never expires
   * });
   * console.log(key.value); // store it now: later reads show only the last four characters
   * ```
   */
  createApiKey(options: ApiKeyCreationOptions<"user"> & CallOptions): Promise<UserApiKeyFirstView>;
}

export interface TeamApiKeyMethods {
  /**
   * The team's API keys (`GET /team-api-keys`); each shows only the last four characters of its value.
   *
   * @example
   * ```ts
   * const keys = await team.listApiKeys();
   * console.log(keys.map((key) => `${key.description} …${key.value.lastFour}`));
   * ```
   */
  listApiKeys(options?: CallOptions): Promise<TeamApiKey[]>;
  /**
   * Creates an API key for the team (`POST /team-api-keys`) and returns it with its full `value`,
   * which is shown this once.
   *
   * @example
   * ```ts
   * const key = await team.createApiKey({ description: "Billing export", expiresAt: null });
   * console.log(key.value);
   * ```
   */
  createApiKey(options: ApiKeyCreationOptions<"team"> & CallOptions): Promise<TeamApiKeyFirstView>;
}

type Schemas = components["schemas"];
/** An API key as the service sends it, listed, created or checked. */
export type WireApiKey = Schemas["UserApiKey"] | Schemas["TeamApiKey"] | Schemas["UserApiKeyFirstView"] | Schemas["TeamApiKeyFirstView"];

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

/** A user's keys: the signed-in user's (`me`); server code names any user. */
export function userApiKeyMethods(ctx: ClientAppContext, userId = "me"): UserApiKeyMethods {
  const owner = apiKeyEndpointFor({ userId });
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

async function listKeys(
  ctx: ClientAppContext,
  owner: ApiKeyEndpoint,
  call: CallOptions | undefined,
): Promise<ApiKey<ApiKeyType, boolean>[]> {
  const data =
    owner.type === "user"
      ? (await ctx.client.send("GET /user-api-keys", { params: { query: { user_id: owner.userId } }, ...signalOf(call) })).data
      : (await ctx.client.send("GET /team-api-keys", { params: { query: { team_id: owner.teamId } }, ...signalOf(call) })).data;
  const items = itemsOf(data, `GET ${owner.path}`);
  return items.map((wire) => apiKeyFromWire(ctx, wire, owner));
}

async function createKey(
  ctx: ClientAppContext,
  owner: ApiKeyEndpoint,
  options: ApiKeyCreationOptions & CallOptions,
): Promise<ApiKey<ApiKeyType, boolean>> {
  requireOptions(options, "createApiKey", "{ description, expiresAt: Date | null, isPublic? }");
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
  requireOptions(options, "ApiKey.update", "{ description?, expiresAt?: Date | null, revoked? }");
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
