// User and team API keys (SPEC §3-§5): the reference SDK's `ApiKey` objects over
// /user-api-keys and /team-api-keys. Their calls (api-key-calls.ts) load with
// the first of them.
import { lazy } from "../../lazy.js";
import type { CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";

const loadApiKeys = lazy("API keys", () => import("./api-key-calls.js"));

export type ApiKeyType = "user" | "team";

/** Why a key no longer works (SPEC §4); `null` from `whyInvalid()` means it is valid. */
export type ApiKeyInvalidReason = "manually-revoked" | "expired";

export type ApiKey<Type extends ApiKeyType = ApiKeyType, IsFirstView extends boolean = false> = {
  readonly id: string;
  readonly description: string;
  /** Absent for a key that never expires. */
  readonly expiresAt?: Date;
  /** Null while the key has not been revoked. */
  readonly manuallyRevokedAt?: Date | null;
  readonly createdAt: Date;
  /** A public key is not revoked by the secret scanner when it is found in public. */
  readonly isPublic: boolean;
  /** The full key right after creation (shown this once); afterwards only its last four characters. */
  readonly value: IsFirstView extends true ? string : { readonly lastFour: string };
  update(options: ApiKeyUpdateOptions<Type> & CallOptions): Promise<void>;
  /** Revokes the key for good (`update({ revoked: true })`). */
  revoke(options?: CallOptions): Promise<void>;
  isValid(): boolean;
  whyInvalid(): ApiKeyInvalidReason | null;
} & (
  | ("user" extends Type ? { readonly type: "user"; readonly userId: string } : never)
  | ("team" extends Type ? { readonly type: "team"; readonly teamId: string } : never)
);

export type UserApiKey = ApiKey<"user">;
export type UserApiKeyFirstView = ApiKey<"user", true>;
export type TeamApiKey = ApiKey<"team">;
export type TeamApiKeyFirstView = ApiKey<"team", true>;

// The type parameter only mirrors the reference's signature (`ApiKeyCreationOptions<"user">`).
export type ApiKeyCreationOptions<_Type extends ApiKeyType = ApiKeyType> = {
  readonly description: string;
  /** `null` makes a key that never expires. */
  readonly expiresAt: Date | null;
  readonly isPublic?: boolean;
};

export type ApiKeyUpdateOptions<_Type extends ApiKeyType = ApiKeyType> = {
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
  listApiKeys(options?: CallOptions): Promise<UserApiKey[]>;
  createApiKey(options: ApiKeyCreationOptions<"user"> & CallOptions): Promise<UserApiKeyFirstView>;
}

export interface TeamApiKeyMethods {
  listApiKeys(options?: CallOptions): Promise<TeamApiKey[]>;
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
