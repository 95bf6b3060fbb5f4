// User and team API keys (/user-api-keys, /team-api-keys): create (the full key
// shown once), list, read, update or revoke, and the server's check of a full
// key. As the service: the project must allow the key type (a plain 400
// otherwise), a client manages only its own user's keys (a plain 403 for
// another user's) and a team's keys only with the team's `$manage_api_keys`
// permission (API_KEY_NOT_FOUND otherwise, not to reveal the team).
import type { components } from "../../generated/schema.js";
import type { EmulatorContext, EmulatorRequest, Handler, Handlers } from "../engine/context.js";
import { fail, handlerSchemaError, statusFailure } from "../engine/errors.js";
import type { ApiKeyRecord, ProjectRecord } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { heldPermissions, userIdParam, uuidParam } from "./permissions.js";

type Schemas = components["schemas"];
type KeyType = "user" | "team";

/** The service's feature switch: `allow_user_api_keys` / `allow_team_api_keys`. */
function requireEnabled(project: ProjectRecord, type: KeyType): void {
  const enabled = type === "user" ? project.config.allow_user_api_keys : project.config.allow_team_api_keys;
  if (!enabled) throw statusFailure(400, `${type === "user" ? "User" : "Team"} API keys are not enabled for this project.`);
}

/** Who may manage the keys of this owner: server and admin callers anyone's; a client its own, or its team's with `$manage_api_keys`. */
function requireManager(request: EmulatorRequest, ctx: EmulatorContext, type: KeyType, ownerId: string): void {
  if (request.accessType !== "client") return;
  if (!request.user) throw fail("USER_AUTHENTICATION_REQUIRED");
  if (type === "user") {
    if (ownerId !== request.user.id) throw statusFailure(403, "Client can only manage their own api keys");
    return;
  }
  const held = heldPermissions(ctx.store, request.project.id, "team", ownerId, request.user.id, true);
  if (!held.has("$manage_api_keys")) throw fail("API_KEY_NOT_FOUND");
}

function ownerOf(key: ApiKeyRecord): string {
  return (key.type === "user" ? key.user_id : key.team_id) as string;
}

type KeyView = Schemas["UserApiKey"] | Schemas["TeamApiKey"] | Schemas["UserApiKeyFirstView"] | Schemas["TeamApiKeyFirstView"];

/** A key as the service shows it: the full value on the first view only, its last four characters afterwards. */
export function apiKeyView(key: ApiKeyRecord, firstView = false): KeyView {
  return {
    id: key.id,
    description: key.description,
    is_public: key.is_public,
    created_at_millis: key.created_at_millis,
    ...(key.expires_at_millis === null ? {} : { expires_at_millis: key.expires_at_millis }),
    ...(key.manually_revoked_at_millis === null ? {} : { manually_revoked_at_millis: key.manually_revoked_at_millis }),
    value: firstView ? key.value : { last_four: key.value.slice(-4) },
    ...(key.type === "user"
      ? { type: "user" as const, user_id: key.user_id as string }
      : { type: "team" as const, team_id: key.team_id as string }),
  } as KeyView;
}

/** The owner a list or read names in its query: `user_id` (optional, `me` allowed) or `team_id` (a required UUID). */
function queryOwner(request: EmulatorRequest, type: KeyType): string | undefined {
  if (type === "team") return uuidParam(request, "query.team_id", request.query.get("team_id"));
  const userId = request.query.get("user_id");
  return userId === null ? undefined : userIdParam(request, "query.user_id", userId);
}

/** The key the path names, of this type and project; API_KEY_NOT_FOUND otherwise. */
function keyOf(request: EmulatorRequest, ctx: EmulatorContext, type: KeyType): ApiKeyRecord {
  const id = uuidParam(request, "params.api_key_id", request.params["api_key_id"]);
  queryOwner(request, type);
  requireEnabled(request.project, type);
  const key = ctx.store.apiKey(id);
  if (!key || key.project_id !== request.project.id || key.type !== type) throw fail("API_KEY_NOT_FOUND");
  requireManager(request, ctx, type, ownerOf(key));
  return key;
}

// The service's key format: `sk_` (or `pk_` for a public key), 45 random base32
// characters, the key id without dashes, the type, a flag character (self-hosted,
// public or not) with the marker `574ck4u7h`, and a CRC-32 of all that in hex.
const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";
const MARKER = "574ck4u7h";

/** `length` random characters of the service's base32 alphabet (lower case), as its secure random strings. */
export function randomBase32(length: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const byte of bytes) out += BASE32[byte % 32];
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32Hex(text: string): string {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, "0");
}

export function projectApiKeyValue(id: string, type: KeyType, isPublic: boolean): string {
  const flag = BASE32[1 + (isPublic ? 2 : 0)] as string;
  const body = `${isPublic ? "pk" : "sk"}_${randomBase32(45)}${id.replace(/-/g, "")}${type}${flag}${MARKER}`;
  return body + crc32Hex(body);
}

function handlersFor(type: KeyType): Record<"list" | "create" | "get" | "update" | "check", Handler> {
  return {
    list: (request, ctx) => {
      const ownerId = queryOwner(request, type);
      requireEnabled(request.project, type);
      // Only a user key's owner can be missing here (a team's is required by the query's schema); the service's own words.
      if (ownerId === undefined) throw handlerSchemaError("user_id is required for user API keys");
      requireManager(request, ctx, type, ownerId);
      const items = ctx.store
        .apiKeysOf(request.project.id)
        .filter((key) => key.type === type && ownerOf(key) === ownerId)
        .reverse()
        .sort((a, b) => b.created_at_millis - a.created_at_millis)
        .map((key) => apiKeyView(key));
      return { body: { items, is_paginated: false } };
    },

    create: (request, ctx) => {
      const body = request.body as {
        user_id?: string;
        team_id?: string;
        description: string;
        expires_at_millis: number | null;
        is_public?: boolean;
      };
      const ownerId =
        type === "user" ? userIdParam(request, "body.user_id", body.user_id) : uuidParam(request, "body.team_id", body.team_id);
      requireEnabled(request.project, type);
      requireManager(request, ctx, type, ownerId);
      // The service stores the key against its owner; an owner that does not exist fails there.
      const owner = type === "user" ? ctx.store.user(ownerId) : ctx.store.team(ownerId);
      if (!owner || owner.project_id !== request.project.id) throw statusFailure(404, `${type === "user" ? "User" : "Team"} not found.`);
      const id = randomId();
      const isPublic = body.is_public ?? false;
      const key: ApiKeyRecord = {
        id,
        project_id: request.project.id,
        type,
        user_id: type === "user" ? ownerId : null,
        team_id: type === "team" ? ownerId : null,
        description: body.description,
        value: projectApiKeyValue(id, type, isPublic),
        is_public: isPublic,
        created_at_millis: ctx.now(),
        // The service reads a zero expiry as none.
        expires_at_millis: body.expires_at_millis ? body.expires_at_millis : null,
        manually_revoked_at_millis: null,
      };
      ctx.store.insert("apiKeys", key);
      return { body: apiKeyView(key, true) };
    },

    get: (request, ctx) => ({ body: apiKeyView(keyOf(request, ctx, type)) }),

    update: (request, ctx) => {
      const key = keyOf(request, ctx, type);
      const body = request.body as { description?: string; revoked?: true } | undefined;
      if (body?.description !== undefined) ctx.store.updateApiKey(key.id, { description: body.description });
      // Revoking is final: a second revocation keeps the first time.
      if (body?.revoked === true && key.manually_revoked_at_millis === null)
        ctx.store.updateApiKey(key.id, { manually_revoked_at_millis: ctx.now() });
      return { body: apiKeyView(key) };
    },

    check: (request, ctx) => {
      requireEnabled(request.project, type);
      const value = (request.body as { api_key: string }).api_key;
      let key: ApiKeyRecord | undefined;
      for (const candidate of ctx.store.apiKeysOf(request.project.id)) if (candidate.value === value) key = candidate;
      if (!key) throw fail("API_KEY_NOT_FOUND");
      if (key.type !== type) {
        throw fail("WRONG_API_KEY_TYPE", { expected_type: type, actual_type: key.type });
      }
      if (key.manually_revoked_at_millis !== null) throw fail("API_KEY_REVOKED");
      if (key.expires_at_millis !== null && key.expires_at_millis < ctx.now()) throw fail("API_KEY_EXPIRED");
      return { body: apiKeyView(key) };
    },
  };
}

const user = handlersFor("user");
const team = handlersFor("team");

export const apiKeyHandlers = {
  listUserApiKeys: user.list,
  createUserApiKey: user.create,
  getUserApiKey: user.get,
  updateUserApiKey: user.update,
  checkUserApiKey: user.check,
  listTeamApiKeys: team.list,
  createTeamApiKey: team.create,
  getTeamApiKey: team.get,
  updateTeamApiKey: team.update,
  checkTeamApiKey: team.check,
} satisfies Handlers;
