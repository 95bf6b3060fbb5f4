// A server user's contact channels (SPEC §3; endpoints.md §C): CRUD under
// /contact-channels/{userId}/{id} and the verification e-mail, for any user.
// Server code may also mark a channel verified. Field mapping is the client's.
import type { components } from "../../../generated/schema.js";
import type { ContactChannel, ContactChannelCreateOptions, ContactChannelUpdateOptions } from "../objects/contact-channel.js";
import { createContactChannelObject, sendChannelVerification } from "../objects/contact-channel-calls.js";
import { signalOf, type CallOptions } from "../call-options.js";
import { answered } from "../wire.js";
import { itemsOf, requireOptions } from "./common.js";
import type { ServerAppContext } from "./context.js";

type WireContactChannel = components["schemas"]["ContactChannel"];

export type ServerContactChannelUpdateOptions = ContactChannelUpdateOptions & {
  readonly isVerified?: boolean;
};

export type ServerContactChannelCreateOptions = ContactChannelCreateOptions & {
  readonly isVerified?: boolean;
};

export type ServerContactChannel = Omit<ContactChannel, "update"> & {
  update(data: ServerContactChannelUpdateOptions & CallOptions): Promise<void>;
};

export interface ServerUserContactChannelMethods {
  listContactChannels(options?: CallOptions): Promise<ServerContactChannel[]>;
  createContactChannel(data: ServerContactChannelCreateOptions & CallOptions): Promise<ServerContactChannel>;
}

export function createServerContactChannel(ctx: ServerAppContext, userId: string, wire: WireContactChannel): ServerContactChannel {
  const { id, value, type, isPrimary, isVerified, usedForAuth } = createContactChannelObject(ctx, wire);
  const params = { path: { user_id: userId, contact_channel_id: id } };
  return {
    id,
    value,
    type,
    isPrimary,
    isVerified,
    usedForAuth,
    async sendVerificationEmail(options) {
      await sendChannelVerification(ctx, userId, id, options?.callbackUrl, options);
    },
    async update(data) {
      requireOptions(data, "contactChannel.update", "{ value?, usedForAuth?, isPrimary?, isVerified? }");
      await ctx.client.api.PATCH("/contact-channels/{user_id}/{contact_channel_id}", {
        params,
        body: {
          ...(data.value !== undefined && { value: data.value }),
          ...(data.usedForAuth !== undefined && { used_for_auth: data.usedForAuth }),
          ...(data.isPrimary !== undefined && { is_primary: data.isPrimary }),
          ...(data.isVerified !== undefined && { is_verified: data.isVerified }),
        },
        ...signalOf(data),
      });
    },
    async delete(options) {
      await ctx.client.api.DELETE("/contact-channels/{user_id}/{contact_channel_id}", { params, ...signalOf(options) });
    },
  };
}

export function serverUserContactChannelMethods(ctx: ServerAppContext, userId: string): ServerUserContactChannelMethods {
  return {
    async listContactChannels(options) {
      const { data } = await ctx.client.api.GET("/contact-channels", { params: { query: { user_id: userId } }, ...signalOf(options) });
      return itemsOf(data, "GET /contact-channels").map((item) => createServerContactChannel(ctx, userId, item));
    },
    async createContactChannel(options) {
      requireOptions(options, "user.createContactChannel", '{ value, type: "email", usedForAuth, isPrimary?, isVerified? }');
      const { data } = await ctx.client.api.POST("/contact-channels", {
        body: {
          user_id: userId,
          value: options.value,
          type: options.type,
          used_for_auth: options.usedForAuth,
          ...(options.isPrimary !== undefined && { is_primary: options.isPrimary }),
          ...(options.isVerified !== undefined && { is_verified: options.isVerified }),
        },
        ...signalOf(options),
      });
      return createServerContactChannel(ctx, userId, answered(data, "POST /contact-channels"));
    },
  };
}
