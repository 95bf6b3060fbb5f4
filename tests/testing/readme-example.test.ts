// The README's "Test your app" example, run as written. The lines between the
// two marker comments are the README's code block, whose imports name the
// package ("stackkit", "stackkit/testing") where these name the sources; the
// last test fails when the two drift apart.
// README example: begin
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeError, isKnownError, RateLimitError, type StackClientAppOptions } from "../../runtime/index.js";
import { appsFor, createTestUser, latestLink, signInAs, startEmulator, type TestEmulator } from "../../testing/index.js";

let emulator: TestEmulator;

beforeEach(async () => {
  emulator = await startEmulator(); // in-process: no port, no network; { http: true } for a server
});
afterEach(() => emulator.close());

// A client app of the emulator's demo project. Outside a browser, the links
// in e-mails need absolute handler URLs.
const clientApp = (options: Partial<StackClientAppOptions> = {}) =>
  appsFor(emulator).client({ urls: { handler: "http://localhost:3000/handler" }, ...options });

it("signs in, and answers a wrong password with a typed result", async () => {
  const app = clientApp();
  const user = await createTestUser(emulator, { displayName: "Ada" });

  const result = await app.signInWithCredential({ email: user.email, password: "not-the-password", noRedirect: true });
  expect(result.status).toBe("error");
  if (result.status === "error") {
    expect(isKnownError(result.error, "EMAIL_PASSWORD_MISMATCH")).toBe(true);
    expect(describeError(result.error).title).toBe("Wrong e-mail or password");
  }

  await signInAs(app, user);
  expect((await app.getUser({ or: "throw" })).displayName).toBe("Ada");
});

it("verifies an e-mail address with the link the emulator mailed", async () => {
  const app = clientApp();
  const user = await createTestUser(emulator, { emailVerified: false });
  await signInAs(app, user);

  await (await app.getUser({ or: "throw" })).sendVerificationEmail();
  const link = new URL(latestLink(emulator, user.email));
  expect(link.pathname).toBe("/handler/email-verification");

  const result = await app.verifyEmail(link.searchParams.get("code")!);
  expect(result.status).toBe("ok");
  expect((await app.getUser({ or: "throw" })).primaryEmailVerified).toBe(true);
});

it("fails at once when the service asks for a longer wait than the app allows", async () => {
  const app = clientApp({ maxRetryAfterMs: 5_000 });
  const user = await createTestUser(emulator);
  emulator.control.injectFault("signInWithPassword", { kind: "rate-limit", retryAfterSeconds: 120 });

  const error = await signInAs(app, user).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RateLimitError);
  expect(describeError(error).message).toBe("Please wait 120 seconds, then try again.");
  expect(emulator.control.requests({ operationId: "signInWithPassword" })).toHaveLength(1);
});

it("lets server code see the same users", async () => {
  const server = appsFor(emulator).server();
  const user = await createTestUser(emulator, { displayName: "Grace" });
  const found = await server.getUser(user.id);
  expect(found?.primaryEmail).toBe(user.email);
  expect(found?.displayName).toBe("Grace");
});
// README example: end

import { readFileSync } from "node:fs";

it("is the README's example, line for line", () => {
  const source = readFileSync(new URL(import.meta.url), "utf8");
  const begin = "// README example: begin\n";
  const end = "// README example: end";
  const example = source
    .slice(source.indexOf(begin) + begin.length, source.indexOf(end))
    .replace('from "../../runtime/index.js"', 'from "stackkit"')
    .replace('from "../../testing/index.js"', 'from "stackkit/testing"');
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  expect(readme).toContain("```ts\n" + example + "```\n");
});
