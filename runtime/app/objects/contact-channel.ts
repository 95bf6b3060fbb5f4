// The signed-in user's contact channels (SPEC §3, endpoints.md §A): listing,
// adding, changing, removing, and the verification e-mail of one channel.
// Client calls address the user as `me` (wire contract §16: the routes are
// /contact-channels/{user_id}/{contact_channel_id}).
import type { EmailAlreadyVerified } from "../../../generated/known-errors.js";
import type { components, operations } from "../../../generated/schema.js";
import { requireOptions, signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { errorOf } from "../result-of.js";
import { answered, itemsOf, wireFields } from "../wire.js";

/**
 * What `ContactChannel.update` changes; fields left out stay as they are.
 *
 * @example
 * ```ts
 * const options: ContactChannelUpdateOptions = { isPrimary: true, usedForAuth: true };
 * const channels = await user.listContactChannels();
 * const work = channels.find((channel) => channel.value === "ada@work.example");
 * if (work !== undefined) await work.update(options);
 * ```
 */
export interface ContactChannelUpdateOptions {
  /** The new address; a changed address is unverified again. */
  readonly value?: string;
  /** Whether the user may sign in with this address; fails if another user signs in with it. */
  readonly usedForAuth?: boolean;
  /** `true` makes this the user's primary channel. */
  readonly isPrimary?: boolean;
}

/**
 * What a new contact channel is made with (`createContactChannel`). A new channel is unverified.
 *
 * @example
 * ```ts
 * const options: ContactChannelCreateOptions = { value: "ada@work.example", type: "email", usedForAuth: false };
 * const channel = await user.createContactChannel(options);
 * await channel.sendVerificationEmail();
 * ```
 */
export interface ContactChannelCreateOptions {
  /** The e-mail address. */
  readonly value: string;
  /** The kind of channel; only `"email"` exists. */
  readonly type: "email";
  /** Whether the user may sign in with this address. */
  readonly usedForAuth: boolean;
  /** `true` makes it the user's primary channel. Default false. */
  readonly isPrimary?: boolean;
}

/** One of the signed-in user's contact channels (an e-mail address): whether it is primary, verified and used for sign-in, and the methods that change it. */
export interface ContactChannel {
  readonly id: string;
  readonly value: string;
  readonly type: "email";
  readonly isPrimary: boolean;
  readonly isVerified: boolean;
  readonly usedForAuth: boolean;
  /**
   * E-mails a verification link to this address, pointing at `callbackUrl`
   * (by default this app's email-verification page). As in the reference SDK,
   * an address that is verified already is not an error: there is nothing to send.
   * The call is `POST /contact-channels/{user_id}/{contact_channel_id}/send-verification-code`.
   *
   * @example
   * ```ts
   * const channels = await user.listContactChannels();
   * for (const channel of channels) {
   *   if (!channel.isVerified) await channel.sendVerificationEmail({ callbackUrl: "/handler/email-verification" });
   * }
   * ```
   */
  sendVerificationEmail(options?: { readonly callbackUrl?: string } & CallOptions): Promise<void>;
  /**
   * Changes the channel (`PATCH /contact-channels/{user_id}/{contact_channel_id}`); only the
   * fields given are sent. This object keeps showing the channel as it was read.
   *
   * @example
   * ```ts
   * const channels = await user.listContactChannels();
   * const work = channels.find((channel) => channel.value === "ada@work.example");
   * if (work !== undefined) await work.update({ isPrimary: true });
   * ```
   */
  update(data: ContactChannelUpdateOptions & CallOptions): Promise<void>;
  /**
   * Removes the channel from the user (`DELETE /contact-channels/{user_id}/{contact_channel_id}`).
   *
   * @example
   * ```ts
   * const channels = await user.listContactChannels();
   * const old = channels.find((channel) => channel.value === "ada@old.example");
   * if (old !== undefined) await old.delete();
   * ```
   */
  delete(options?: CallOptions): Promise<void>;
}

export interface UserContactChannelMethods {
  /**
   * The user's contact channels, the primary e-mail among them (`GET /contact-channels?user_id=me`).
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * const channels = await user.listContactChannels();
   * for (const channel of channels) {
   *   console.log(channel.value, channel.isPrimary ? "primary" : "", channel.isVerified ? "verified" : "unverified");
   * }
   * ```
   */
  listContactChannels(options?: CallOptions): Promise<ContactChannel[]>;
  /**
   * Adds a contact channel to the user (`POST /contact-channels`) and returns it, unverified.
   * With `usedForAuth`, an address another user already signs in with is refused: that
   * ContactChannelAlreadyUsedForAuthBySomeoneElse is thrown.
   *
   * @example
   * ```ts
   * const channel = await user.createContactChannel({
   *   value: "ada@work.example",
   *   type: "email",
   *   usedForAuth: true,
   * });
   * await channel.sendVerificationEmail();
   * ```
   */
  createContactChannel(data: ContactChannelCreateOptions & CallOptions): Promise<ContactChannel>;
}

type WireContactChannel = components["schemas"]["ContactChannel"];

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

type WireChannelUpdate = operations["updateContactChannel"]["requestBody"]["content"]["application/json"];
type WireChannelCreate = operations["createContactChannel"]["requestBody"]["content"]["application/json"];

/** The options of `update`, under their wire names. */
const UPDATE_FIELDS = {
  value: "value",
  usedForAuth: "used_for_auth",
  isPrimary: "is_primary",
} as const satisfies Record<keyof ContactChannelUpdateOptions, keyof WireChannelUpdate>;
/** The options of `createContactChannel`, under their wire names. */
const CREATE_FIELDS = {
  value: "value",
  type: "type",
  usedForAuth: "used_for_auth",
  isPrimary: "is_primary",
} as const satisfies Record<keyof ContactChannelCreateOptions, keyof WireChannelCreate>;
/** What server code also sets, creating a channel or changing one: whether the address is verified. */
const SERVER_UPDATE_FIELDS = { ...UPDATE_FIELDS, isVerified: "is_verified" } as const;
const SERVER_CREATE_FIELDS = { ...CREATE_FIELDS, isVerified: "is_verified" } as const;
/** How the options of server code's calls are named in errors: with `isVerified`. */
const shapeEnd = (server: boolean) => (server ? ", isVerified?" : "");

/**
 * Channel `wire` of user `userId`: the signed-in user's (`me`) for a client; any user's for
 * server code (`server`), whose `update` may also say whether the address is verified.
 */
export function createContactChannelObject(ctx: ClientAppContext, wire: WireContactChannel, userId = "me", server = false): ContactChannel {
  const params = { path: { user_id: userId, contact_channel_id: wire.id } };
  return {
    id: wire.id,
    value: wire.value,
    type: wire.type,
    isPrimary: wire.is_primary,
    isVerified: wire.is_verified,
    usedForAuth: wire.used_for_auth,
    async sendVerificationEmail(options) {
      await sendChannelVerification(ctx, userId, wire.id, options?.callbackUrl, options);
    },
    async update(data) {
      requireOptions(data, "contactChannel.update", `{ value?, usedForAuth?, isPrimary?${shapeEnd(server)} }`);
      await ctx.client.send("PATCH /contact-channels/{user_id}/{contact_channel_id}", {
        params,
        body: wireFields(data, server ? SERVER_UPDATE_FIELDS : UPDATE_FIELDS) as WireChannelUpdate,
        ...signalOf(data),
      });
    },
    async delete(options) {
      await ctx.client.send("DELETE /contact-channels/{user_id}/{contact_channel_id}", { params, ...signalOf(options) });
    },
  };
}

/**
 * The contact-channel methods of user `userId`: the signed-in user's (`me`) for a client; any
 * user's for server code (`server`), which may also say whether an address is verified when it
 * creates or changes one (user-contact-channels.ts gives them the server's types).
 */
export function userContactChannelMethods(ctx: ClientAppContext, userId = "me", server = false): UserContactChannelMethods {
  const channelOf = (wire: WireContactChannel) => createContactChannelObject(ctx, wire, userId, server);
  return {
    async listContactChannels(options) {
      const { data } = await ctx.client.send("GET /contact-channels", { params: { query: { user_id: userId } }, ...signalOf(options) });
      return itemsOf(data, "GET /contact-channels").map(channelOf);
    },
    async createContactChannel(options) {
      requireOptions(
        options,
        server ? "user.createContactChannel" : "createContactChannel",
        `{ value, type: "email", usedForAuth, isPrimary?${shapeEnd(server)} }`,
      );
      const { data } = await ctx.client.send("POST /contact-channels", {
        body: { user_id: userId, ...wireFields(options, server ? SERVER_CREATE_FIELDS : CREATE_FIELDS) } as WireChannelCreate,
        ...signalOf(options),
      });
      return channelOf(answered(data, "POST /contact-channels"));
    },
  };
}
