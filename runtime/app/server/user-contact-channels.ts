// A server user's contact channels (SPEC §3; endpoints.md §C): CRUD under
// /contact-channels/{userId}/{id} and the verification e-mail, for any user.
// Server code may also mark a channel verified. The calls are the client's
// (objects/contact-channel.ts), made for this user; the types are the server's.
import type { ContactChannel, ContactChannelCreateOptions, ContactChannelUpdateOptions } from "../objects/contact-channel.js";
import { userContactChannelMethods } from "../objects/contact-channel.js";
import type { CallOptions } from "../call-options.js";
import type { ServerAppContext } from "./context.js";

/**
 * What a server's `contactChannel.update` changes: a client's fields, and whether the address counts
 * as verified; fields left out stay as they are.
 *
 * @example
 * ```ts
 * const options: ServerContactChannelUpdateOptions = { isVerified: true, usedForAuth: true };
 * const channels = await user.listContactChannels();
 * const work = channels.find((channel) => channel.value === "ada@work.example");
 * if (work !== undefined) await work.update(options);
 * ```
 */
export type ServerContactChannelUpdateOptions = ContactChannelUpdateOptions & {
  /** Marks the address verified (`true`) or unverified (`false`), without a verification e-mail. */
  readonly isVerified?: boolean;
};

/**
 * What server code adds a contact channel with: a client's fields, and whether the address is
 * already verified.
 *
 * @example
 * ```ts
 * const options: ServerContactChannelCreateOptions = { value: "ada@work.example", type: "email", usedForAuth: true, isVerified: true };
 * const channel = await user.createContactChannel(options);
 * console.log(channel.id, channel.isVerified);
 * ```
 */
export type ServerContactChannelCreateOptions = ContactChannelCreateOptions & {
  /** Adds the address as verified, without a verification e-mail. Default false. */
  readonly isVerified?: boolean;
};

/**
 * A user's contact channel as server code sees it (`serverUser.listContactChannels()`): server
 * code may also mark it verified.
 *
 * @interface
 */
export type ServerContactChannel = Omit<ContactChannel, "update"> & {
  /**
   * Changes the channel (`PATCH /contact-channels/{user_id}/{contact_channel_id}`), `isVerified`
   * included; only the fields given are sent. This object keeps showing the channel as it was read.
   *
   * @example
   * ```ts
   * const channels = await user.listContactChannels();
   * const primary = channels.find((channel) => channel.isPrimary);
   * if (primary !== undefined) await primary.update({ isVerified: true });
   * ```
   */
  update(data: ServerContactChannelUpdateOptions & CallOptions): Promise<void>;
};

export interface ServerUserContactChannelMethods {
  /**
   * The user's contact channels (`GET /contact-channels?user_id=`), primary or not, verified or not.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * const channels = (await user?.listContactChannels()) ?? [];
   * for (const channel of channels) {
   *   console.log(channel.value, channel.isPrimary, channel.isVerified);
   * }
   * ```
   */
  listContactChannels(options?: CallOptions): Promise<ServerContactChannel[]>;
  /**
   * Adds a contact channel to the user (`POST /contact-channels`) and returns it, verified only when
   * `isVerified` says so. With `usedForAuth`, an address another user already signs in with is
   * thrown as ContactChannelAlreadyUsedForAuthBySomeoneElse.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user !== null) {
   *   await user.createContactChannel({ value: "ada@work.example", type: "email", usedForAuth: false, isVerified: true });
   * }
   * ```
   */
  createContactChannel(data: ServerContactChannelCreateOptions & CallOptions): Promise<ServerContactChannel>;
}

/** The contact-channel methods of user `userId` for server code, which may say whether an address is verified. */
export function serverUserContactChannelMethods(ctx: ServerAppContext, userId: string): ServerUserContactChannelMethods {
  return userContactChannelMethods(ctx, userId, true) as ServerUserContactChannelMethods;
}
