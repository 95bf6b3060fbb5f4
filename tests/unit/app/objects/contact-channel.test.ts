// Contact channels of the signed-in user (SPEC §3 "Contact channel", endpoints.md §A).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { isStackError } from "../../../../runtime/errors.js";
import { createContactChannelObject } from "../../../../runtime/app/objects/contact-channel.js";
import { userContactChannelMethods } from "../../../../runtime/app/objects/contact-channel.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, knownError, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { doc } from "../../../fixtures/document.js";

const CHANNEL = doc.components.examples.ContactChannel!.value as {
  id: string;
  user_id: string;
  value: string;
  type: "email";
  used_for_auth: boolean;
  is_verified: boolean;
  is_primary: boolean;
};
const LIST = doc.components.examples.ContactChannelList!.value;
const sent = (s: { requests: { method: string; path: string; body: string }[] }) =>
  s.requests.map((r) => ({ method: r.method, path: r.path, body: r.body === "" ? undefined : JSON.parse(r.body) }));

function setup(handler: Handler = () => json({ success: true })) {
  const t = testAppContext(handler);
  return { ...t, methods: userContactChannelMethods(t.ctx), channel: createContactChannelObject(t.ctx, CHANNEL) };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("listContactChannels", () => {
  it("is GET /contact-channels?user_id=me, each channel with the reference's field names", async () => {
    const { methods, service } = setup(() => json(LIST));
    const channels = await methods.listContactChannels();
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/contact-channels?user_id=me", body: undefined }]);
    expect(channels).toHaveLength(1);
    const [channel] = channels;
    expect(channel).toEqual({
      id: CHANNEL.id,
      value: "ada@example.com",
      type: "email",
      isPrimary: true,
      isVerified: true,
      usedForAuth: true,
      sendVerificationEmail: expect.any(Function),
      update: expect.any(Function),
      delete: expect.any(Function),
    });
  });
});

describe("createContactChannel", () => {
  it("is POST /contact-channels for user me, snake_case, answering the new channel", async () => {
    const created = {
      ...CHANNEL,
      id: "7b1e2c3d-0000-4000-8000-000000000001",
      value: "ada@work.example",
      used_for_auth: false,
      is_primary: false,
      is_verified: false,
    };
    const { methods, service } = setup(() => json(created, { status: 201 }));
    const channel = await methods.createContactChannel({ value: "ada@work.example", type: "email", usedForAuth: false, isPrimary: false });
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/api/v1/contact-channels",
        body: { user_id: "me", value: "ada@work.example", type: "email", used_for_auth: false, is_primary: false },
      },
    ]);
    expect(channel).toMatchObject({ id: created.id, value: "ada@work.example", isPrimary: false, isVerified: false, usedForAuth: false });
  });

  it("leaves is_primary out when isPrimary is not given", async () => {
    const { methods, service } = setup(() => json(CHANNEL, { status: 201 }));
    await methods.createContactChannel({ value: "ada@example.com", type: "email", usedForAuth: true });
    expect(sent(service)[0]!.body).toEqual({ user_id: "me", value: "ada@example.com", type: "email", used_for_auth: true });
  });

  it("without options is a configuration error and sends nothing", async () => {
    const { methods, service } = setup();
    const error = await rejectionOf(methods.createContactChannel(undefined as never));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});

describe("ContactChannel.update", () => {
  it("is PATCH /contact-channels/me/{id} with the fields given, snake_case", async () => {
    const { channel, service } = setup(() => json(CHANNEL));
    await channel.update({ value: "ada@new.example", usedForAuth: false, isPrimary: true });
    expect(sent(service)).toEqual([
      {
        method: "PATCH",
        path: `/api/v1/contact-channels/me/${CHANNEL.id}`,
        body: { value: "ada@new.example", used_for_auth: false, is_primary: true },
      },
    ]);
  });

  it("sends only the fields given", async () => {
    const { channel, service } = setup(() => json(CHANNEL));
    await channel.update({ usedForAuth: true });
    expect(sent(service)[0]!.body).toEqual({ used_for_auth: true });
  });

  it("encodes the channel id in the path", async () => {
    const { ctx, service } = setup(() => json(CHANNEL));
    await createContactChannelObject(ctx, { ...CHANNEL, id: "a/b?c" }).update({ isPrimary: true });
    expect(service.requests[0]!.path).toBe("/api/v1/contact-channels/me/a%2Fb%3Fc");
  });
});

describe("ContactChannel.delete", () => {
  it("is DELETE /contact-channels/me/{id}", async () => {
    const { channel, service } = setup();
    await channel.delete();
    expect(sent(service)).toEqual([{ method: "DELETE", path: `/api/v1/contact-channels/me/${CHANNEL.id}`, body: undefined }]);
  });
});

describe("ContactChannel.sendVerificationEmail", () => {
  it("is POST /contact-channels/me/{id}/send-verification-code with the absolute email-verification URL by default", async () => {
    const { channel, service } = setup();
    const result = await channel.sendVerificationEmail();
    expect(result).toBeUndefined();
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: `/api/v1/contact-channels/me/${CHANNEL.id}/send-verification-code`,
        body: { callback_url: "https://app.example.com/handler/email-verification" },
      },
    ]);
  });

  it("sends the callbackUrl given", async () => {
    const { channel, service } = setup();
    await channel.sendVerificationEmail({ callbackUrl: "https://app.example.com/verify" });
    expect(sent(service)[0]!.body).toEqual({ callback_url: "https://app.example.com/verify" });
  });

  it("resolves undefined for a verified address, as the reference SDK does: there is nothing to send", async () => {
    const { channel, service } = setup(() => knownError(409, "EMAIL_ALREADY_VERIFIED", "The e-mail is already verified."));
    expect(await channel.sendVerificationEmail()).toBeUndefined();
    expect(service.requests).toHaveLength(1);
  });

  it("throws any other known error", async () => {
    const { channel } = setup(() => knownError(400, "REDIRECT_URL_NOT_WHITELISTED", "Redirect URL not whitelisted."));
    expect(await rejectionOf(channel.sendVerificationEmail())).toBeInstanceOf(KnownErrors.RedirectUrlNotWhitelisted);
  });
});
