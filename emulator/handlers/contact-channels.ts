// Contact channels: a user's e-mail addresses (list, add, read, change,
// remove), the verification e-mail of one channel or (legacy) of the primary
// e-mail, and redeeming the verification code. As the service: a client acts
// on its own channels only (a plain 403, or 400 for the verification e-mail,
// for another user's); a channel that is not the user's is a plain 404/400;
// no two users sign in with one address; one primary channel per user.
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, schemaError, statusFailure, StatusFailure } from "../engine/errors.js";
import type { ContactChannelRecord, Store } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { contactChannelView, list, primaryChannelOf } from "../engine/views.js";
import { redeem } from "./auth-shared.js";
import { authChannelTaken, checkCallbackUrl, mailCode, storedEmail } from "./common.js";

interface ChannelBody {
  user_id?: string;
  value?: string;
  type?: "email";
  used_for_auth?: boolean;
  is_primary?: boolean;
  is_verified?: boolean;
}

/**
 * The id of the user a request names (`me` is the signed-in user). A client
 * must be signed in and may name only itself; the service answers `refusal`
 * (plain text) for another user.
 */
function ownerId(request: EmulatorRequest, userId: string | undefined, refusal: StatusFailure): string | undefined {
  if (request.accessType === "client" || userId === "me") {
    if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const id = request.user.id;
    if (userId !== "me" && userId !== id) throw refusal;
    return id;
  }
  return userId;
}

const forbidden = (verb: string) => statusFailure(403, `Client can only ${verb} contact channels for their own user.`);

/** A client may not set `is_verified`: its schema does not have it. */
function checkClientBody(request: EmulatorRequest, body: ChannelBody): void {
  if (request.accessType === "client" && body.is_verified !== undefined)
    throw schemaError(request, "body contains unknown properties: is_verified");
}

function channelOf(request: EmulatorRequest, ctx: EmulatorContext, userId: string): ContactChannelRecord | undefined {
  const channel = ctx.store.channel(request.params["contact_channel_id"] ?? "");
  return channel && channel.project_id === request.project.id && channel.user_id === userId ? channel : undefined;
}

/** Makes `channel` the user's only primary channel. */
function demoteOthers(store: Store, channel: ContactChannelRecord): void {
  for (const other of store.channelsOf(channel.user_id)) {
    if (other.id !== channel.id && other.is_primary) store.updateChannel(other.id, { is_primary: false });
  }
}

/** CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE when another channel signs in with `value`. */
function checkAuthFree(ctx: EmulatorContext, projectId: string, value: string, self: string | undefined, showValue: boolean): void {
  const taken = ctx.store.authChannelByEmail(projectId, value);
  if (taken && taken.id !== self) throw authChannelTaken(ctx, showValue ? value : null);
}

/** E-mails the verification link of `email` (a channel of `userId`); `verifyEmail` redeems its code. */
function mailVerification(ctx: EmulatorContext, request: EmulatorRequest, userId: string, email: string, callbackUrl: string): void {
  checkCallbackUrl(request.project, callbackUrl);
  mailCode(ctx, request.project, { kind: "email_verification", to: email, callbackUrl, data: { user_id: userId, email } });
}

export const contactChannelHandlers = {
  listContactChannels(request, ctx) {
    const userId = ownerId(request, request.query.get("user_id") ?? undefined, forbidden("list"));
    // Server code without user_id lists every channel of the project, as the service does.
    const channels =
      userId === undefined
        ? ctx.store.channelsOfProject(request.project.id)
        : ctx.store.channelsOf(userId).filter((channel) => channel.project_id === request.project.id);
    return { body: list(channels.map(contactChannelView)) };
  },

  createContactChannel(request, ctx) {
    const { store } = ctx;
    const sent = request.body as ChannelBody & { user_id: string; value: string };
    const body = { ...sent, value: storedEmail(ctx, sent.value) };
    checkClientBody(request, body);
    const userId = ownerId(request, body.user_id, forbidden("create")) as string;
    const user = store.user(userId);
    if (!user || user.project_id !== request.project.id) throw fail("USER_NOT_FOUND");
    if (store.channelsOf(userId).some((channel) => channel.value === body.value))
      throw statusFailure(400, "Contact channel already exists");
    if (body.used_for_auth) checkAuthFree(ctx, request.project.id, body.value, undefined, true);
    const channel: ContactChannelRecord = {
      id: randomId(),
      project_id: request.project.id,
      user_id: userId,
      type: "email",
      value: body.value,
      is_verified: body.is_verified ?? false,
      is_primary: body.is_primary ?? false,
      used_for_auth: body.used_for_auth ?? false,
    };
    if (channel.is_primary) demoteOthers(store, channel);
    store.insert("contactChannels", channel);
    return { status: 201, body: contactChannelView(channel) };
  },

  getContactChannel(request, ctx) {
    const userId = ownerId(request, request.params["user_id"], forbidden("read")) as string;
    const channel = channelOf(request, ctx, userId);
    if (!channel) throw statusFailure(404, "Contact channel not found.");
    return { body: contactChannelView(channel) };
  },

  updateContactChannel(request, ctx) {
    const { store } = ctx;
    const sent = (request.body ?? {}) as ChannelBody;
    const body = sent.value === undefined ? sent : { ...sent, value: storedEmail(ctx, sent.value) };
    checkClientBody(request, body);
    const userId = ownerId(request, request.params["user_id"], forbidden("update")) as string;
    const channel = channelOf(request, ctx, userId);
    if (!channel) throw statusFailure(400, "Contact channel not found");
    const value = body.value ?? channel.value;
    const usedForAuth = body.used_for_auth ?? channel.used_for_auth;
    if (value !== channel.value && store.channelsOf(userId).some((other) => other.id !== channel.id && other.value === value)) {
      throw statusFailure(400, "Contact channel already exists");
    }
    if (usedForAuth) checkAuthFree(ctx, request.project.id, value, channel.id, false);
    if (body.is_primary) demoteOthers(store, channel);
    const updated = store.updateChannel(channel.id, {
      value,
      // A new address (any `value` sent) is unverified unless server code says otherwise.
      is_verified: body.is_verified ?? (body.value !== undefined ? false : channel.is_verified),
      used_for_auth: usedForAuth,
      is_primary: body.is_primary ?? channel.is_primary,
    }) as ContactChannelRecord;
    return { body: contactChannelView(updated) };
  },

  deleteContactChannel(request, ctx) {
    const userId = ownerId(request, request.params["user_id"], forbidden("delete")) as string;
    const channel = channelOf(request, ctx, userId);
    if (!channel) throw statusFailure(400, "Contact channel not found");
    ctx.store.deleteChannel(channel.id);
    return { body: { success: true } };
  },

  sendContactChannelVerificationCode(request, ctx) {
    const pathUserId = request.params["user_id"] ?? "";
    const userId = ownerId(request, pathUserId, statusFailure(400, "Can only send verification code for your own user")) as string;
    const user = ctx.store.user(userId);
    if (!user || user.project_id !== request.project.id) throw fail("USER_ID_DOES_NOT_EXIST", { user_id: userId });
    const channel = channelOf(request, ctx, userId);
    if (!channel) throw statusFailure(404, "Contact channel not found");
    if (channel.is_verified) throw fail("EMAIL_ALREADY_VERIFIED");
    mailVerification(ctx, request, userId, channel.value, (request.body as { callback_url: string }).callback_url);
    return { body: { success: true } };
  },

  sendEmailVerificationCode(request, ctx) {
    const { email, callback_url: callbackUrl } = request.body as { email: string; callback_url: string };
    if (!request.user) throw schemaError(request, "auth.user must be defined");
    const primary = primaryChannelOf(ctx.store, request.user.id);
    // The service sends `primary_email: null` for a user without one (the document types it as a string).
    if (primary?.value !== email) throw fail("EMAIL_IS_NOT_PRIMARY_EMAIL", { email, primary_email: primary?.value ?? null });
    if (primary.is_verified) throw fail("EMAIL_ALREADY_VERIFIED");
    mailVerification(ctx, request, request.user.id, email, callbackUrl);
    return { body: { success: true } };
  },

  // The code stays usable: the service's check-code route only looks the code up.
  checkEmailVerificationCode(request, ctx) {
    redeem(request, ctx, "email_verification", (request.body as { code: string }).code, false);
    return { body: { is_code_valid: true } };
  },

  verifyEmail(request, ctx) {
    const record = redeem(request, ctx, "email_verification", (request.body as { code: string }).code, true);
    const userId = String(record.data["user_id"] ?? "");
    const email = typeof record.data["email"] === "string" ? record.data["email"] : record.recipient;
    const channel = ctx.store.channelsOf(userId).find((c) => c.type === "email" && c.value === email);
    // The code is used up all the same: the service marks it used before it looks for the channel.
    if (!channel) throw statusFailure(400, "Contact channel not found. Was your contact channel deleted?");
    ctx.store.updateChannel(channel.id, { is_verified: true });
    return { body: { success: true } };
  },
} satisfies Handlers;
