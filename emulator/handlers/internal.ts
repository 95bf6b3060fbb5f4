// The project's own key sets (/internal/api-keys, admin only): the publishable
// client, secret server and super secret admin keys apps are configured with.
// A set made here authenticates requests at once (engine/auth.ts reads the
// same table), and stops doing so when it expires or is revoked.
import type { components } from "../../generated/schema.js";
import type { EmulatorRequest, Handlers } from "../engine/context.js";
import { fail } from "../engine/errors.js";
import type { KeySetRecord, Store } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { randomBase32 } from "./api-keys.js";
import { uuidParam } from "./permissions.js";

type Schemas = components["schemas"];

const KEY_KINDS = ["publishable_client_key", "secret_server_key", "super_secret_admin_key"] as const;

/** The service's key prefixes, before 45 random base32 characters. */
const PREFIX = { publishable_client_key: "pck_", secret_server_key: "ssk_", super_secret_admin_key: "sak_" } as const;
const secureRandomString = () => randomBase32(45);

/** A key set as listed: only the last four characters of each key it holds. */
export function keySetView(set: KeySetRecord): Schemas["InternalApiKey"] {
  const view: Schemas["InternalApiKey"] = {
    id: set.id,
    description: set.description,
    created_at_millis: set.created_at_millis,
    expires_at_millis: set.expires_at_millis,
    ...(set.manually_revoked_at_millis === undefined ? {} : { manually_revoked_at_millis: set.manually_revoked_at_millis }),
  };
  for (const kind of KEY_KINDS) {
    const value = set[kind];
    if (value !== undefined) view[kind] = { last_four: value.slice(-4) };
  }
  return view;
}

/** The key set the path names, of the request's project; API_KEY_NOT_FOUND otherwise. */
function keySetOf(request: EmulatorRequest, store: Store): KeySetRecord {
  const id = uuidParam(request, "params.api_key_id", request.params["api_key_id"]);
  const set = store.keySet(id);
  if (!set || set.project_id !== request.project.id) throw fail("API_KEY_NOT_FOUND");
  return set;
}

export const internalHandlers = {
  listInternalApiKeys: ({ project }, ctx) => {
    const sets = ctx.store
      .keySetsOf(project.id)
      .reverse()
      .sort((a, b) => b.created_at_millis - a.created_at_millis);
    return { body: { items: sets.map(keySetView), is_paginated: false } };
  },

  createInternalApiKey: ({ project, body }, ctx) => {
    const o = body as {
      description: string;
      expires_at_millis: number;
      has_publishable_client_key: boolean;
      has_secret_server_key: boolean;
      has_super_secret_admin_key: boolean;
    };
    const keys = {
      ...(o.has_publishable_client_key ? { publishable_client_key: PREFIX.publishable_client_key + secureRandomString() } : {}),
      ...(o.has_secret_server_key ? { secret_server_key: PREFIX.secret_server_key + secureRandomString() } : {}),
      ...(o.has_super_secret_admin_key ? { super_secret_admin_key: PREFIX.super_secret_admin_key + secureRandomString() } : {}),
    };
    const set: KeySetRecord = {
      id: randomId(),
      project_id: project.id,
      description: o.description,
      created_at_millis: ctx.now(),
      expires_at_millis: o.expires_at_millis,
      ...keys,
    };
    ctx.store.insert("keySets", set);
    // The first view: the keys in full, this once.
    const view: Schemas["InternalApiKeyFirstView"] = {
      id: set.id,
      description: set.description,
      created_at_millis: set.created_at_millis,
      expires_at_millis: set.expires_at_millis,
      ...keys,
    };
    return { body: view };
  },

  getInternalApiKey: (request, ctx) => ({ body: keySetView(keySetOf(request, ctx.store)) }),

  updateInternalApiKey: (request, ctx) => {
    const set = keySetOf(request, ctx.store);
    const body = request.body as { description?: string; revoked?: true } | undefined;
    if (body?.description !== undefined) ctx.store.updateKeySet(set.id, { description: body.description });
    // Revoking is final: a second revocation keeps the first time.
    if (body?.revoked === true && set.manually_revoked_at_millis === undefined)
      ctx.store.updateKeySet(set.id, { manually_revoked_at_millis: ctx.now() });
    return { body: keySetView(set) };
  },
} satisfies Handlers;
