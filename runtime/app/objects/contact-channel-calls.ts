// The calls behind contact channels (SPEC §3, endpoints.md §A). Client calls
// address the user as `me` (wire contract §16: the routes are
// /contact-channels/{user_id}/{contact_channel_id}).
import type { EmailAlreadyVerified } from "../../../generated/known-errors.js";
import type { components } from "../../../generated/schema.js";
import { StackConfigurationError, signalOf, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { errorOf } from "../result-of.js";
import { assertAnswered } from "../wire.js";
import type { ContactChannel, UserContactChannelMethods } from "./contact-channel.js";

type WireContactChannel = components["schemas"]["ContactChannel"];

/** Options are checked so that a call without them is a clear error, not a TypeError. */
function requireOptions(value: unknown, method: string, shape: string): void {
  if (typeof value !== "object" || value === null) throw new StackConfigurationError(`${method} needs options: ${shape}.`);
}

/**
 * Sends the verification e-mail of channel `channelId` of user `userId` (`me` for
 * the signed-in user); answers EmailAlreadyVerified when the address is verified.
 */
export function sendChannelVerification(
  ctx: Pick<ClientAppContext, "client" | "absoluteUrl" | "urls">,
  userId: string,
  channelId: string,
  callbackUrl: string | undefined,
  call?: CallOptions,
): Promise<EmailAlreadyVerified | undefined> {
  const callback_url = ctx.absoluteUrl(callbackUrl ?? ctx.urls.emailVerification);
  return errorOf(
    () =>
      ctx.client.send("POST /contact-channels/{user_id}/{contact_channel_id}/send-verification-code", {
        params: { path: { user_id: userId, contact_channel_id: channelId } },
        body: { callback_url },
        ...signalOf(call),
      }),
    ["EMAIL_ALREADY_VERIFIED"],
  );
}

/** The channel's path: the signed-in user is `me`. */
const pathOf = (id: string) => ({ path: { user_id: "me", contact_channel_id: id } });

export function createContactChannelObject(ctx: ClientAppContext, wire: WireContactChannel): ContactChannel {
  return {
    id: wire.id,
    value: wire.value,
    type: wire.type,
    isPrimary: wire.is_primary,
    isVerified: wire.is_verified,
    usedForAuth: wire.used_for_auth,
    async sendVerificationEmail(options) {
      await sendChannelVerification(ctx, "me", wire.id, options?.callbackUrl, options);
    },
    async update(data) {
      requireOptions(data, "contactChannel.update", "{ value?, usedForAuth?, isPrimary? }");
      await ctx.client.send("PATCH /contact-channels/{user_id}/{contact_channel_id}", {
        params: pathOf(wire.id),
        body: {
          ...(data.value !== undefined && { value: data.value }),
          ...(data.usedForAuth !== undefined && { used_for_auth: data.usedForAuth }),
          ...(data.isPrimary !== undefined && { is_primary: data.isPrimary }),
        },
        ...signalOf(data),
      });
    },
    async delete(options) {
      await ctx.client.send("DELETE /contact-channels/{user_id}/{contact_channel_id}", { params: pathOf(wire.id), ...signalOf(options) });
    },
  };
}

export function userContactChannelMethods(ctx: ClientAppContext): UserContactChannelMethods {
  return {
    async listContactChannels(options) {
      const { data } = await ctx.client.send("GET /contact-channels", { params: { query: { user_id: "me" } }, ...signalOf(options) });
      assertAnswered(data, "GET /contact-channels");
      return data.items.map((item) => createContactChannelObject(ctx, item));
    },
    async createContactChannel(options) {
      requireOptions(options, "createContactChannel", '{ value, type: "email", usedForAuth, isPrimary? }');
      const { data } = await ctx.client.send("POST /contact-channels", {
        body: {
          user_id: "me",
          value: options.value,
          type: options.type,
          used_for_auth: options.usedForAuth,
          ...(options.isPrimary !== undefined && { is_primary: options.isPrimary }),
        },
        ...signalOf(options),
      });
      assertAnswered(data, "POST /contact-channels", "the new contact channel");
      return createContactChannelObject(ctx, data);
    },
  };
}
