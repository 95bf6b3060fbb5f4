// Users: the signed-in user (`/users/me`: read, update, delete) and server
// code's users by id, the listing with cursor pagination and search, and
// creation. Checks run in the service's order; what the service answers as
// plain text (its StatusError) is a StatusFailure. Updates validate every
// field before changing anything, as the service's transaction does.
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, schemaError, statusFailure } from "../engine/errors.js";
import { isClientImage, storedPictureUrl } from "../engine/images.js";
import type { Changes, ProjectRecord, Store, UserRecord } from "../engine/store.js";
import { hashPassword } from "../engine/tokens.js";
import { primaryChannelOf, restrictedReasonOf, serverUserView, userView } from "../engine/views.js";
import { createPersonalTeamIfEnabled, createUserRecord, emailTaken, storedEmail, userOf } from "./common.js";
import { isImportableHash } from "./auth-shared.js";
import { applyPrimaryEmail } from "./primary-email.js";

/** What a client may change on itself; anything else in its PATCH /users/me is an unknown property. */
const CLIENT_FIELDS: ReadonlySet<string> = new Set([
  "display_name",
  "profile_image_url",
  "client_metadata",
  "selected_team_id",
  "totp_secret_base64",
  "otp_auth_enabled",
  "passkey_auth_enabled",
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The fields of a user update or creation, as the wire names them. */
interface UserBody {
  display_name?: string | null;
  profile_image_url?: string | null;
  client_metadata?: unknown;
  client_read_only_metadata?: unknown;
  server_metadata?: unknown;
  primary_email?: string | null;
  primary_email_verified?: boolean;
  primary_email_auth_enabled?: boolean;
  passkey_auth_enabled?: boolean;
  password?: string | null;
  password_hash?: string;
  otp_auth_enabled?: boolean;
  totp_secret_base64?: string | null;
  selected_team_id?: string | null;
  is_anonymous?: boolean;
  oauth_providers?: { id: string; account_id: string; email?: string | null }[];
  /** 2.8.86 (2.8.11's profile refuses it as an unknown field). */
  country_code?: string | null;
  /** 2.8.86, as `country_code`. */
  risk_scores?: { sign_up: { bot: number; free_trial_abuse: number } };
}

/** What the service's body schema refuses beyond the document: a client's server-only fields, bad base64, a URL that is none. */
function checkBody(request: EmulatorRequest, body: UserBody, clientFieldsOnly: boolean): void {
  const problems: string[] = [];
  if (clientFieldsOnly) {
    const unknown = Object.keys(body).filter((key) => !CLIENT_FIELDS.has(key));
    if (unknown.length > 0) problems.push(`body contains unknown properties: ${unknown.join(", ")}`);
  }
  if (typeof body.totp_secret_base64 === "string" && !BASE64.test(body.totp_secret_base64))
    problems.push("body.totp_secret_base64 is not valid base64");
  if (typeof body.profile_image_url === "string" && !isUrl(body.profile_image_url))
    problems.push("body.profile_image_url is not a valid URL");
  if (typeof body.password === "string" && body.password.length > 70) problems.push("body.password must be at most 70 characters");
  // The service's country-code schema trims and upper-cases, then wants two letters.
  if (typeof body.country_code === "string") {
    body.country_code = body.country_code.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(body.country_code)) problems.push("body.country_code must be a 2-letter country code");
  }
  if (problems.length > 0) throw schemaError(request, ...problems);
}

/** The record's changes of a body's sign-up facts (`country_code`, `risk_scores`); those not given stay. */
function signUpFactsOf(body: UserBody): Changes<UserRecord> {
  const changes: Changes<UserRecord> = {};
  if (body.country_code !== undefined) changes.country_code = body.country_code;
  if (body.risk_scores !== undefined) changes.risk_scores = { ...body.risk_scores.sign_up };
  return changes;
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** The new password's stored form: a hash of `password`, the given MCF hash, null to remove, undefined to keep. */
async function passwordHashOf(body: UserBody): Promise<string | null | undefined> {
  if (body.password !== undefined) {
    if (body.password_hash !== undefined) throw statusFailure(400, "Cannot set both password and password_hash at the same time.");
    if (body.password === null) return null;
    // Server code sets any password up to the schema's 70 characters: the sign-up rules (8 or more) are not checked here.
    return hashPassword(body.password);
  }
  if (body.password_hash !== undefined) {
    if (!(await isImportableHash(body.password_hash)))
      throw statusFailure(400, "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.");
    // Kept as given: password sign-in checks it with bcrypt.
    return body.password_hash;
  }
  return undefined;
}

function checkEmailRules(email: string | null, authEnabled: boolean, verified: boolean): void {
  if (!email && authEnabled) throw statusFailure(400, "primary_email_auth_enabled cannot be true without primary_email");
  if (!email && verified) throw statusFailure(400, "primary_email_verified cannot be true without primary_email");
}

/** The user as shown: a selection of a team the user has left (or that is gone) reads as none. */
function settled(store: Store, user: UserRecord): UserRecord {
  const teamId = user.selected_team_id;
  if (teamId !== null && (store.team(teamId) === undefined || store.membership(teamId, user.id) === undefined))
    store.updateUser(user.id, { selected_team_id: null });
  return user;
}

const PERSONAL_TEAM = "Personal Team";

/**
 * Applies an update (server semantics; a client's body holds client fields only),
 * all checks first. `passwordHash` is `passwordHashOf(body)`, which the caller
 * computes where the service checks the password.
 */
async function updateUserRecord(
  ctx: EmulatorContext,
  project: ProjectRecord,
  user: UserRecord,
  body: UserBody,
  passwordHash: string | null | undefined,
): Promise<void> {
  const { store } = ctx;
  if (
    body.selected_team_id !== undefined &&
    body.selected_team_id !== null &&
    store.membership(body.selected_team_id, user.id) === undefined
  ) {
    throw fail("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: body.selected_team_id, user_id: user.id });
  }
  const primary = primaryChannelOf(store, user.id);
  const newEmail = body.primary_email ? storedEmail(ctx, body.primary_email) : body.primary_email;
  const removing = newEmail === null;
  const email = newEmail !== undefined ? newEmail : (primary?.value ?? null);
  const authEnabled = removing ? false : (body.primary_email_auth_enabled ?? primary?.used_for_auth ?? false);
  const verified = removing ? false : (body.primary_email_verified ?? primary?.is_verified ?? false);
  checkEmailRules(email, authEnabled, verified);
  if (email && authEnabled) {
    const taken = store.authChannelByEmail(project.id, email);
    if (taken && taken.id !== primary?.id) throw emailTaken(ctx, email);
  }
  if (body.otp_auth_enabled === true && !user.otp_auth_enabled && !project.config.magic_link_enabled) {
    throw statusFailure(400, "OTP auth not enabled in the project");
  }
  if (typeof passwordHash === "string" && user.password_hash === null && !project.config.credential_enabled) {
    throw statusFailure(400, "Password auth not enabled in the project");
  }
  const picture = storedPictureUrl(ctx, project.id, body.profile_image_url, "user-profile-images");

  if (body.selected_team_id !== undefined) store.updateUser(user.id, { selected_team_id: body.selected_team_id });
  applyPrimaryEmail(ctx, project, user, { email: newEmail, verifiedGiven: body.primary_email_verified, authEnabled, verified });
  const changes: Changes<UserRecord> = {};
  if (body.otp_auth_enabled !== undefined) changes.otp_auth_enabled = body.otp_auth_enabled;
  // Only registering a passkey turns passkey sign-in on; `true` here changes nothing.
  if (body.passkey_auth_enabled === false) changes.passkey_auth_enabled = false;
  if (passwordHash !== undefined) changes.password_hash = passwordHash;
  if (user.is_anonymous && body.is_anonymous === false) {
    const name = body.display_name ? `${body.display_name}'s Team` : body.primary_email ? `${body.primary_email}'s Team` : PERSONAL_TEAM;
    for (const team of store.teamsOfUser(user.id))
      if (team.display_name === PERSONAL_TEAM) store.updateTeam(team.id, { display_name: name });
    changes.is_anonymous = false;
  }
  if (body.display_name !== undefined) changes.display_name = body.display_name || null;
  if (picture !== undefined) changes.profile_image_url = picture;
  if (body.client_metadata !== undefined) changes.client_metadata = body.client_metadata;
  if (body.client_read_only_metadata !== undefined) changes.client_read_only_metadata = body.client_read_only_metadata;
  if (body.server_metadata !== undefined) changes.server_metadata = body.server_metadata;
  if (body.totp_secret_base64 !== undefined) changes.totp_secret_base64 = body.totp_secret_base64;
  store.updateUser(user.id, { ...changes, ...signUpFactsOf(body) });
  // A new (or removed) password ends every session of the user.
  if (passwordHash !== undefined) store.deleteSessionsOf(user.id);
}

/** The listing's query, checked as the service's query schema does. */
function listQuery(request: EmulatorRequest, ctx: EmulatorContext) {
  const q = request.query;
  const problems: string[] = [];
  const flags = ["include_anonymous", "include_restricted", "only_anonymous"];
  if (ctx.profile.userListing === "every-user") {
    const unknown = flags.filter((name) => q.has(name));
    if (unknown.length > 0) problems.push(`query contains unknown properties: ${unknown.join(", ")}`);
  }
  const limitText = q.get("limit");
  const limit = limitText === null ? undefined : Number(limitText);
  if (limit !== undefined && (!Number.isInteger(limit) || limitText?.trim() === "")) problems.push("query.limit must be an integer");
  else if (limit !== undefined && limit < 1) problems.push("query.limit must be greater than or equal to 1");
  const desc = q.get("desc");
  if (desc !== null && desc !== "true" && desc !== "false") problems.push("query.desc must be one of the following values: true, false");
  const orderBy = q.get("order_by");
  if (orderBy !== null && orderBy !== "signed_up_at") problems.push("query.order_by must be one of the following values: signed_up_at");
  const cursor = q.get("cursor");
  if (cursor !== null && !UUID.test(cursor)) problems.push("query.cursor must be a valid UUID");
  const teamId = q.get("team_id");
  if (teamId !== null && !UUID.test(teamId)) problems.push("query.team_id must be a valid UUID");
  if (problems.length > 0) throw schemaError(request, ...problems);
  return {
    limit,
    desc: desc === "true",
    cursor,
    teamId,
    search: q.get("query") ?? undefined,
    everyUser: ctx.profile.userListing === "every-user",
    includeAnonymous: q.get("include_anonymous") === "true",
    onlyAnonymous: q.get("only_anonymous") === "true",
    includeRestricted: q.get("include_restricted") === "true",
  };
}

/** The service's free-text search: part of the display name or of any contact channel's address (no case), or the exact id. */
function matches(store: Store, user: UserRecord, search: string): boolean {
  const needle = search.toLowerCase();
  const id = search.replace(/[^a-zA-Z0-9\-_.]/g, "");
  if (UUID.test(id) && user.id === id.toLowerCase()) return true;
  if (user.display_name?.toLowerCase().includes(needle)) return true;
  return store.channelsOf(user.id).some((channel) => channel.value.toLowerCase().includes(needle));
}

export const userHandlers = {
  getCurrentUser(request, ctx) {
    if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
    return { body: userView(ctx.store, settled(ctx.store, request.user), request.accessType, ctx.profile) };
  },

  async updateCurrentUser(request, ctx) {
    const body = (request.body ?? {}) as UserBody;
    const client = request.accessType === "client";
    checkBody(request, body, client);
    if (client && body.profile_image_url && !isClientImage(body.profile_image_url)) throw statusFailure(400, "Invalid profile image URL");
    if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
    await updateUserRecord(ctx, request.project, request.user, body, await passwordHashOf(body));
    return { body: userView(ctx.store, settled(ctx.store, request.user), request.accessType, ctx.profile) };
  },

  deleteCurrentUser(request, ctx) {
    if (request.accessType === "client" && !request.project.config.client_user_deletion_enabled) {
      throw statusFailure(400, "Client user deletion is not enabled for this project");
    }
    if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
    ctx.store.deleteUser(request.user.id);
    return { body: { success: true } };
  },

  listUsers(request, ctx) {
    const { store } = ctx;
    const o = listQuery(request, ctx);
    if (o.onlyAnonymous && !o.includeAnonymous) throw statusFailure(400, "only_anonymous=true requires include_anonymous=true");
    const direction = o.desc ? -1 : 1;
    const users = store
      .usersOf(request.project.id)
      .filter((user) => o.everyUser || (o.onlyAnonymous ? user.is_anonymous : o.includeAnonymous || !user.is_anonymous))
      // 2.8.86 leaves restricted users out unless include_restricted (or include_anonymous) asks for them.
      .filter((user) => o.everyUser || o.includeAnonymous || o.includeRestricted || restrictedReasonOf(ctx.profile, store, user) === null)
      .filter((user) => o.teamId === null || store.membership(o.teamId, user.id) !== undefined)
      .filter((user) => o.search === undefined || o.search === "" || matches(store, user, o.search))
      .sort((a, b) => direction * (a.signed_up_at_millis - b.signed_up_at_millis || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    // The cursor is the first user of the page it starts (the previous page's `next_cursor`).
    const cursor = o.cursor?.toLowerCase();
    const start = cursor === undefined ? 0 : users.findIndex((user) => user.id === cursor);
    const from = start < 0 ? [] : users.slice(start);
    const page = o.limit === undefined ? from : from.slice(0, o.limit);
    const next = o.limit === undefined ? undefined : from[o.limit];
    return {
      body: {
        items: page.map((user) => serverUserView(store, settled(store, user), ctx.profile)),
        is_paginated: true,
        pagination: { next_cursor: next?.id ?? null },
      },
    };
  },

  async createUser(request, ctx) {
    const { project } = request;
    const body = (request.body ?? {}) as UserBody;
    checkBody(request, body, false);
    const passwordHash = await passwordHashOf(body);
    const email = body.primary_email ? storedEmail(ctx, body.primary_email) : null;
    checkEmailRules(email, body.primary_email_auth_enabled ?? false, body.primary_email_verified ?? false);
    if (email && body.primary_email_auth_enabled && ctx.store.authChannelByEmail(project.id, email)) throw emailTaken(ctx, email);
    // Stored as the user is made, before the rest is checked (a later failure leaves the file, as the service's does).
    const picture = storedPictureUrl(ctx, project.id, body.profile_image_url, "user-profile-images");
    for (const provider of body.oauth_providers ?? []) {
      if (!project.config.oauth_providers.some((p) => p.id === provider.id))
        throw statusFailure(400, `OAuth provider ${provider.id} not found`);
    }
    if (passwordHash && !project.config.credential_enabled) throw statusFailure(400, "Password auth not enabled in the project");
    if (body.otp_auth_enabled && !project.config.magic_link_enabled) throw statusFailure(400, "OTP auth not enabled in the project");

    const user = await createUserRecord(ctx, project, {
      email,
      emailVerified: body.primary_email_verified ?? false,
      emailAuth: body.primary_email_auth_enabled ?? false,
      displayName: body.display_name || null,
      profileImageUrl: picture ?? null,
      isAnonymous: body.is_anonymous ?? false,
    });
    // The service stores what it is given and null for metadata not given.
    ctx.store.updateUser(user.id, {
      client_metadata: body.client_metadata ?? null,
      client_read_only_metadata: body.client_read_only_metadata ?? null,
      server_metadata: body.server_metadata ?? null,
      password_hash: passwordHash ?? null,
      otp_auth_enabled: body.otp_auth_enabled ?? false,
      oauth_providers: (body.oauth_providers ?? []).map((p) => ({ id: p.id, account_id: p.account_id, email: p.email ?? null })),
      ...signUpFactsOf(body),
    });
    // A TOTP secret given at creation does not turn multi-factor sign-in on (wire contract §16).
    // Both versions answer the user as it was before its personal team was made: no team selected yet.
    const created = serverUserView(ctx.store, user, ctx.profile);
    createPersonalTeamIfEnabled(ctx, project, user);
    return { status: 201, body: created };
  },

  getUser(request, ctx) {
    const user = userOf(request, ctx, request.params["user_id"] ?? "");
    return { body: serverUserView(ctx.store, settled(ctx.store, user), ctx.profile) };
  },

  async updateUser(request, ctx) {
    const body = (request.body ?? {}) as UserBody;
    checkBody(request, body, false);
    const passwordHash = await passwordHashOf(body);
    const user = userOf(request, ctx, request.params["user_id"] ?? "");
    await updateUserRecord(ctx, request.project, user, body, passwordHash);
    return { body: serverUserView(ctx.store, settled(ctx.store, user), ctx.profile) };
  },

  deleteUser(request, ctx) {
    const user = userOf(request, ctx, request.params["user_id"] ?? "");
    ctx.store.deleteUser(user.id);
    return { body: { success: true } };
  },
} satisfies Handlers;
