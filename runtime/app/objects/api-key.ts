// User and team API keys (SPEC §3-§5): the reference SDK's `ApiKey` objects over
// /user-api-keys and /team-api-keys. Their calls (api-key-calls.ts) load with
// the first of them.
import { lazy, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";

const loadApiKeys = /* @__PURE__ */ lazy("API keys", () => import("./api-key-calls.js"));

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

/** The current user's keys (`user_id=me`). */
export function userApiKeyMethods(ctx: ClientAppContext): UserApiKeyMethods {
  return lazyMethods(loadApiKeys, (m) => m.userApiKeyMethods(ctx), { listApiKeys: true, createApiKey: true });
}

/** A team's keys; the user needs the team's `$manage_api_keys` permission. */
export function teamApiKeyMethods(ctx: ClientAppContext, teamId: string): TeamApiKeyMethods {
  return lazyMethods(loadApiKeys, (m) => m.teamApiKeyMethods(ctx, teamId), { listApiKeys: true, createApiKey: true });
}
