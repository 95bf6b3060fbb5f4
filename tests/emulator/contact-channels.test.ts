// Contact channels through the SDK against the emulator: a user's addresses
// (list, add, change, remove), one primary channel per user, one user per
// sign-in address, and verification by e-mail link, on the client and for
// server code, with the service's errors.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { HttpError, isKnownError, StackClientApp, StackServerApp } from "../../runtime/index.js";
import { demoAppOptions, rawDemoRequest, signedInUser, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();
const CALLBACK = "http://localhost:3000/handler/email-verification";

const common = () => demoAppOptions(emulator());

const serverApp = () => new StackServerApp({ ...common(), tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey });
const clientApp = () => new StackClientApp({ ...common(), tokenStore: "memory" });
const store = () => emulator().engine.ctx.store;

/** A user of the demo project, and a client app signed in as them. */
async function signedIn(email: string, emailVerified = true) {
  return signedInUser(emulator(), email, { emailVerified });
}

/** A request of the given access type, outside the SDK, for what the SDK never sends. */
const raw = (method: string, path: string, o: Parameters<typeof rawDemoRequest>[3] = {}) => rawDemoRequest(emulator(), method, path, o);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** The code of the last verification e-mail sent to `to`, read from the link in the captured mail. */
function lastCode(to: string): string {
  const emails = emulator().control.emails({ to });
  const text = emails[emails.length - 1]?.text ?? "";
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no verification link was mailed to ${to}`);
  expect(link.startsWith(`${CALLBACK}?code=`)).toBe(true);
  return new URL(link).searchParams.get("code")!;
}

describe("a user's contact channels", () => {
  it("lists the primary e-mail and adds an unverified address", async () => {
    const { user } = await signedIn("ada@example.com");
    expect((await user.listContactChannels()).map((c) => [c.value, c.isPrimary, c.isVerified, c.usedForAuth])).toEqual([
      ["ada@example.com", true, true, true],
    ]);
    const added = await user.createContactChannel({ value: "ada@work.example", type: "email", usedForAuth: false });
    expect(
      emulator()
        .control.requests({ operationId: "createContactChannel" })
        .map((r) => r.status),
    ).toEqual([201]);
    expect([added.value, added.isPrimary, added.isVerified, added.usedForAuth]).toEqual(["ada@work.example", false, false, false]);
    expect((await user.listContactChannels()).map((c) => c.value)).toEqual(["ada@example.com", "ada@work.example"]);
  });

  it("refuses an address the user has already (a plain 400) and a sign-in address of someone else", async () => {
    await signedIn("grace@example.com");
    const { user } = await signedIn("alan@example.com");
    const duplicate = await rejection(user.createContactChannel({ value: "alan@example.com", type: "email", usedForAuth: false }));
    expect([(duplicate as HttpError).status, (duplicate as HttpError).body]).toEqual([400, "Contact channel already exists"]);
    const taken = await rejection(user.createContactChannel({ value: "grace@example.com", type: "email", usedForAuth: true }));
    expect(isKnownError(taken, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE")).toBe(true);
    expect((taken as { details?: unknown }).details).toEqual({
      type: "email",
      contact_channel_value: "grace@example.com",
      would_work_if_email_was_verified: false,
    });
    const notForAuth = await user.createContactChannel({ value: "grace@example.com", type: "email", usedForAuth: false });
    expect(notForAuth.usedForAuth).toBe(false);
  });

  it("keeps one primary channel: a new primary demotes the old one", async () => {
    const { user, app } = await signedIn("barbara@example.com");
    await user.createContactChannel({ value: "barbara@new.example", type: "email", usedForAuth: true, isPrimary: true });
    const channels = await user.listContactChannels();
    expect(channels.map((c) => [c.value, c.isPrimary])).toEqual([
      ["barbara@example.com", false],
      ["barbara@new.example", true],
    ]);
    expect((await app.getUser({ or: "throw" })).primaryEmail).toBe("barbara@new.example");
    await channels[0]!.update({ isPrimary: true });
    expect((await user.listContactChannels()).map((c) => c.isPrimary)).toEqual([true, false]);
    expect((await app.getUser({ or: "throw" })).primaryEmail).toBe("barbara@example.com");
  });

  it("unverifies a changed address, and moves who signs in with which address", async () => {
    const { user } = await signedIn("old@example.com");
    const [channel] = await user.listContactChannels();
    await channel!.update({ value: "new@example.com" });
    const [updated] = await user.listContactChannels();
    expect([updated!.value, updated!.isVerified, updated!.usedForAuth]).toEqual(["new@example.com", false, true]);
    expect(store().authChannelByEmail(DEMO_KEYS.projectId, "old@example.com")).toBeUndefined();
    expect(store().authChannelByEmail(DEMO_KEYS.projectId, "new@example.com")?.id).toBe(channel!.id);
    const other = await signedIn("old@example.com");
    const error = await rejection(other.user.createContactChannel({ value: "new@example.com", type: "email", usedForAuth: true }));
    expect(isKnownError(error, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE")).toBe(true);
    const spare = await other.user.createContactChannel({ value: "new@example.com", type: "email", usedForAuth: false });
    const refused = await rejection(spare.update({ usedForAuth: true }));
    // 2.8.86's text leaves the place of the (unnamed) address empty.
    expect((refused as { message?: string }).message).toBe("This email  is already used for authentication by another account.");
  });

  it("removes a channel; removing it again is a plain 400", async () => {
    const { user } = await signedIn("linus@example.com");
    const spare = await user.createContactChannel({ value: "linus@spare.example", type: "email", usedForAuth: false });
    await spare.delete();
    expect((await user.listContactChannels()).map((c) => c.value)).toEqual(["linus@example.com"]);
    const error = await rejection(spare.delete());
    expect([(error as HttpError).status, (error as HttpError).body]).toEqual([400, "Contact channel not found"]);
  });

  it("is the user's own: a client naming another user is refused (403)", async () => {
    const { record } = await signedIn("owner@example.com");
    const { tokens } = await signedIn("nosy@example.com");
    const answer = await raw("GET", `/contact-channels?user_id=${record.id}`, { token: tokens.accessToken });
    expect([answer.status, answer.text]).toEqual([403, "Client can only list contact channels for their own user."]);
    const nobody = await raw("GET", "/contact-channels?user_id=me");
    expect([nobody.status, nobody.knownError]).toEqual([400, "CANNOT_GET_OWN_USER_WITHOUT_USER"]);
  });
});

describe("verifying an address", () => {
  it("mails a link whose code verifies the channel, once", async () => {
    const { user, app } = await signedIn("verify@example.com");
    const channel = await user.createContactChannel({ value: "second@example.com", type: "email", usedForAuth: false });
    await channel.sendVerificationEmail({ callbackUrl: CALLBACK });
    const code = lastCode("second@example.com");
    expect((await clientApp().verifyEmail(code)).status).toBe("ok");
    expect((await user.listContactChannels()).find((c) => c.id === channel.id)?.isVerified).toBe(true);
    const again = await app.verifyEmail(code);
    expect(again.status === "error" && isKnownError(again.error, "VERIFICATION_CODE_ALREADY_USED")).toBe(true);
    const unknown = await app.verifyEmail("x".repeat(45));
    expect(unknown.status === "error" && isKnownError(unknown.error, "VERIFICATION_CODE_NOT_FOUND")).toBe(true);
  });

  it("sends nothing for a verified address, and refuses an untrusted callback URL", async () => {
    const { user } = await signedIn("done@example.com");
    const [primary] = await user.listContactChannels();
    await primary!.sendVerificationEmail({ callbackUrl: CALLBACK });
    expect(emulator().control.emails({ to: "done@example.com" })).toEqual([]);
    const spare = await user.createContactChannel({ value: "spare@example.com", type: "email", usedForAuth: false });
    const error = await rejection(spare.sendVerificationEmail({ callbackUrl: "https://evil.example/handler/email-verification" }));
    expect(isKnownError(error, "REDIRECT_URL_NOT_WHITELISTED")).toBe(true);
  });

  it("verifies the primary e-mail through the legacy call", async () => {
    const { user, app } = await signedIn("legacy@example.com", false);
    expect(user.primaryEmailVerified).toBe(false);
    expect(await user.sendVerificationEmail({ callbackUrl: CALLBACK })).toBeUndefined();
    expect((await app.verifyEmail(lastCode("legacy@example.com"))).status).toBe("ok");
    const verified = await app.getUser({ or: "throw" });
    expect(verified.primaryEmailVerified).toBe(true);
    expect(isKnownError(await verified.sendVerificationEmail({ callbackUrl: CALLBACK }), "EMAIL_ALREADY_VERIFIED")).toBe(true);
  });

  it("cannot verify a channel deleted after the mail went (a plain 400)", async () => {
    const { user, app } = await signedIn("fickle@example.com");
    const channel = await user.createContactChannel({ value: "gone@example.com", type: "email", usedForAuth: false });
    await channel.sendVerificationEmail({ callbackUrl: CALLBACK });
    await channel.delete();
    const error = await rejection(app.verifyEmail(lastCode("gone@example.com")));
    expect([(error as HttpError).status, (error as HttpError).body]).toEqual([
      400,
      "Contact channel not found. Was your contact channel deleted?",
    ]);
  });
});

describe("server code's contact channels", () => {
  it("manages any user's channels and may mark them verified", async () => {
    const record = await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email: "srv@example.com" });
    const user = (await serverApp().getUser(record.id))!;
    const channel = await user.createContactChannel({ value: "srv2@example.com", type: "email", usedForAuth: true, isVerified: true });
    expect([channel.isVerified, channel.usedForAuth]).toEqual([true, true]);
    await channel.update({ value: "srv3@example.com", isVerified: true });
    expect((await user.listContactChannels()).map((c) => [c.value, c.isVerified])).toEqual([
      ["srv@example.com", true],
      ["srv3@example.com", true],
    ]);
    await channel.update({ value: "srv4@example.com" });
    expect((await user.listContactChannels())[1]?.isVerified).toBe(false);
    await channel.sendVerificationEmail({ callbackUrl: CALLBACK });
    expect(emulator().control.emails({ to: "srv4@example.com" })).toHaveLength(1);
    await channel.delete();
    expect((await user.listContactChannels()).map((c) => c.value)).toEqual(["srv@example.com"]);
  });

  it("answers USER_ID_DOES_NOT_EXIST for the verification e-mail of an unknown user", async () => {
    const answer = await raw("POST", `/contact-channels/${crypto.randomUUID()}/${crypto.randomUUID()}/send-verification-code`, {
      access: "server",
      body: { callback_url: CALLBACK },
    });
    expect([answer.status, answer.knownError]).toEqual([400, "USER_ID_DOES_NOT_EXIST"]);
  });

  it("refuses is_verified from a client", async () => {
    const { tokens, record } = await signedIn("sneaky@example.com");
    const answer = await raw("POST", "/contact-channels", {
      token: tokens.accessToken,
      body: { user_id: "me", value: "sneaky2@example.com", type: "email", used_for_auth: false, is_verified: true },
    });
    expect([answer.status, answer.knownError]).toEqual([400, "SCHEMA_ERROR"]);
    expect(store().channelsOf(record.id)).toHaveLength(1);
  });
});
