// The signed-in user's contact channels (SPEC §3, endpoints.md §A): listing,
// adding, changing, removing, and the verification e-mail of one channel. The
// calls (contact-channel-calls.ts) load with the first of them.
import { lazy, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";

const loadContactChannels = /* @__PURE__ */ lazy("contact channels", () => import("./contact-channel-calls.js"));

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

export function userContactChannelMethods(ctx: ClientAppContext): UserContactChannelMethods {
  return lazyMethods(loadContactChannels, (m) => m.userContactChannelMethods(ctx), {
    listContactChannels: true,
    createContactChannel: true,
  });
}
