// The signed-in user's contact channels (SPEC §3, endpoints.md §A): listing,
// adding, changing, removing, and the verification e-mail of one channel. The
// calls (contact-channel-calls.ts) load with the first of them.
import { lazy } from "../../lazy.js";
import type { CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";

const loadContactChannels = lazy("contact channels", () => import("./contact-channel-calls.js"));

export interface ContactChannelUpdateOptions {
  readonly value?: string;
  readonly usedForAuth?: boolean;
  readonly isPrimary?: boolean;
}

export interface ContactChannelCreateOptions {
  readonly value: string;
  readonly type: "email";
  /** Whether the user may sign in with this address. */
  readonly usedForAuth: boolean;
  readonly isPrimary?: boolean;
}

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
   */
  sendVerificationEmail(options?: { readonly callbackUrl?: string } & CallOptions): Promise<void>;
  update(data: ContactChannelUpdateOptions & CallOptions): Promise<void>;
  delete(options?: CallOptions): Promise<void>;
}

export interface UserContactChannelMethods {
  listContactChannels(options?: CallOptions): Promise<ContactChannel[]>;
  createContactChannel(data: ContactChannelCreateOptions & CallOptions): Promise<ContactChannel>;
}

export function userContactChannelMethods(ctx: ClientAppContext): UserContactChannelMethods {
  return lazyMethods(loadContactChannels, (m) => m.userContactChannelMethods(ctx), {
    listContactChannels: true,
    createContactChannel: true,
  });
}
