// The project's own key sets (SPEC §3 "Internal (project) API key"): the
// publishable client, secret server and super secret admin keys that apps are
// configured with. Unlike user and team keys, validity checks expiry first and
// manual revocation second (SPEC §4), as the reference SDK does.
import type { components } from "../../../generated/schema.js";
import { requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError, StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { answered, itemsOf } from "../wire.js";

type Schemas = components["schemas"];

/** Why an internal API key no longer works; `whyInvalid()` answers null for a valid key. */
export type InternalApiKeyInvalidReason = "expired" | "manually-revoked";

/** What every internal API key of a project has (the keys of the project's apps: publishable, secret server and super secret admin keys), as listed or just created. */
export interface InternalApiKeyBase {
  readonly id: string;
  readonly description: string;
  readonly expiresAt: Date;
  /** Null while the set has not been revoked. */
  readonly manuallyRevokedAt: Date | null;
  readonly createdAt: Date;
  /**
   * True while the set is neither expired nor revoked (checked against the
   * app's clock now, without a request).
   *
   * @example
   * ```ts
   * const keySets = await admin.listInternalApiKeys();
   * const inUse = keySets.filter((keySet) => keySet.isValid());
   * console.log(`${inUse.length} key sets in use`);
   * ```
   */
  isValid(): boolean;
  /**
   * Why the set no longer works: `expired` wins over `manually-revoked` when
   * both hold; null when the set is valid. No request is made.
   *
   * @example
   * ```ts
   * for (const keySet of await admin.listInternalApiKeys()) {
   *   const why = keySet.whyInvalid();
   *   if (why !== null) console.log(keySet.description, why);
   * }
   * ```
   */
  whyInvalid(): InternalApiKeyInvalidReason | null;
  /**
   * Revokes every key of the set for good (`PATCH /internal/api-keys/{api_key_id}`
   * with `{ revoked: true }`). Resolves with nothing; this object keeps showing the set as it was read.
   *
   * @example
   * ```ts
   * const keySets = await admin.listInternalApiKeys();
   * const leaked = keySets.find((keySet) => keySet.secretServerKey?.lastFour === "x7Qa");
   * await leaked?.revoke();
   * ```
   */
  revoke(options?: CallOptions): Promise<void>;
}

/** The creation answer: the keys asked for, in full, shown this once. */
export interface InternalApiKeyFirstView extends InternalApiKeyBase {
  readonly publishableClientKey?: string;
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
}

/** A listed key set: only the last four characters of each key; null for a key the set does not hold. */
export interface InternalApiKey extends InternalApiKeyBase {
  readonly publishableClientKey: { readonly lastFour: string } | null;
  readonly secretServerKey: { readonly lastFour: string } | null;
  readonly superSecretAdminKey: { readonly lastFour: string } | null;
}

/**
 * What `StackAdminApp.createInternalApiKey` takes: a description, an expiry,
 * and which of the three keys the set holds.
 *
 * @example
 * ```ts
 * const keySet = await admin.createInternalApiKey({
 *   description: "Mobile app",
 *   expiresAt: new Date("2027-01-01T00:00:00Z"),
 *   hasPublishableClientKey: true,
 *   hasSecretServerKey: false,
 *   hasSuperSecretAdminKey: false,
 * });
 * ```
 */
export interface InternalApiKeyCreateOptions {
  /** What the set is for, shown on the dashboard. */
  readonly description: string;
  /** When every key of the set stops working; required, as project keys always expire. */
  readonly expiresAt: Date;
  /** Whether the set holds a publishable client key (for client apps). */
  readonly hasPublishableClientKey: boolean;
  /** Whether the set holds a secret server key (for server apps). */
  readonly hasSecretServerKey: boolean;
  /** Whether the set holds a super secret admin key (for admin apps). */
  readonly hasSuperSecretAdminKey: boolean;
}

/** `POST /internal/api-keys`: a new key set, keys in full this once. */
export async function createInternalApiKey(
  ctx: ClientAppContext,
  options: InternalApiKeyCreateOptions & CallOptions,
): Promise<InternalApiKeyFirstView> {
  requireOptions(
    options,
    "createInternalApiKey",
    "{ description, expiresAt: Date, hasPublishableClientKey, hasSecretServerKey, hasSuperSecretAdminKey }",
  );
  const expiresAt = options.expiresAt instanceof Date ? options.expiresAt.getTime() : Number.NaN;
  if (!Number.isFinite(expiresAt)) {
    throw new StackConfigurationError("createInternalApiKey: expiresAt must be a valid Date (project keys always expire).");
  }
  const { data } = await ctx.client.send("POST /internal/api-keys", {
    body: {
      description: options.description,
      expires_at_millis: expiresAt,
      has_publishable_client_key: options.hasPublishableClientKey,
      has_secret_server_key: options.hasSecretServerKey,
      has_super_secret_admin_key: options.hasSuperSecretAdminKey,
    },
    ...signalOf(options),
  });
  const wire = answered(data, "POST /internal/api-keys");
  return Object.freeze({
    ...baseFromWire(ctx, wire),
    ...fullKey("publishableClientKey", wire.publishable_client_key),
    ...fullKey("secretServerKey", wire.secret_server_key),
    ...fullKey("superSecretAdminKey", wire.super_secret_admin_key),
  });
}

/** `GET /internal/api-keys`: every key set of the project, last four characters only. */
export async function listInternalApiKeys(ctx: ClientAppContext, options?: CallOptions): Promise<InternalApiKey[]> {
  const { data } = await ctx.client.send("GET /internal/api-keys", signalOf(options));
  const items = itemsOf(data, "GET /internal/api-keys");
  return items.map((wire) =>
    Object.freeze({
      ...baseFromWire(ctx, wire),
      publishableClientKey: lastFourOf(wire.publishable_client_key),
      secretServerKey: lastFourOf(wire.secret_server_key),
      superSecretAdminKey: lastFourOf(wire.super_secret_admin_key),
    }),
  );
}

/** `PATCH /internal/api-keys/{id}` `{revoked: true}`. */
export async function revokeInternalApiKey(ctx: ClientAppContext, id: string, options?: CallOptions): Promise<void> {
  await ctx.client.send("PATCH /internal/api-keys/{api_key_id}", {
    params: { path: { api_key_id: id } },
    body: { revoked: true },
    ...signalOf(options),
  });
}

function baseFromWire(ctx: ClientAppContext, wire: Schemas["InternalApiKey"] | Schemas["InternalApiKeyFirstView"]): InternalApiKeyBase {
  const expiresAt = dateOf(wire.expires_at_millis, "expires_at_millis");
  const revokedMillis = wire.manually_revoked_at_millis;
  const manuallyRevokedAt =
    revokedMillis === undefined || revokedMillis === null ? null : dateOf(revokedMillis, "manually_revoked_at_millis");
  const whyInvalid = (): InternalApiKeyInvalidReason | null => {
    // SPEC §4: for project keys expiry is reported before revocation.
    if (expiresAt.getTime() < ctx.env.now()) return "expired";
    if (manuallyRevokedAt !== null) return "manually-revoked";
    return null;
  };
  return {
    id: wire.id,
    description: wire.description,
    expiresAt,
    manuallyRevokedAt,
    createdAt: dateOf(wire.created_at_millis, "created_at_millis"),
    isValid: () => whyInvalid() === null,
    whyInvalid,
    revoke: (options) => revokeInternalApiKey(ctx, wire.id, options),
  };
}

/**
 * One key of a new set: its value, or undefined for a key the set lacks, a member all the same, as on the
 * reference's key sets, whose declaration also calls it optional (hence the assertion).
 */
function fullKey<Name extends string>(name: Name, value: unknown): { [K in Name]?: string } {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw new StackAssertionError(`POST /internal/api-keys answered ${name} without the full key`);
  }
  return { [name]: value ?? undefined } as { [K in Name]?: string };
}

function lastFourOf(value: Schemas["LastFour"] | undefined | null): { readonly lastFour: string } | null {
  if (value === undefined || value === null) return null;
  if (typeof value.last_four !== "string")
    throw new StackAssertionError("GET /internal/api-keys answered a key without its last four characters");
  return { lastFour: value.last_four };
}

function dateOf(millis: unknown, field: string): Date {
  if (typeof millis !== "number" || !Number.isFinite(millis)) {
    throw new StackAssertionError(`The service answered a project key set whose ${field} is not a time in milliseconds`);
  }
  return new Date(millis);
}
