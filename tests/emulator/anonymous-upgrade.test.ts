// An anonymous user who signs up on a service since 2.8.86 is upgraded in place:
// the SDK must not break that. The app sends the anonymous user's session with
// the sign-up, stores the tokens it answers, and the user it reads afterwards is
// the same user, no longer anonymous; what the anonymous session's objects could
// do, the new session's do.
import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../runtime/index.js";
import { demoAppOptions, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator({ serviceVersion: "2.8.86" });

describe("an anonymous user signing up (2.8.86)", () => {
  it("keeps the user id, signed in as the user it became", async () => {
    const app = new StackClientApp({ ...demoAppOptions(emulator()), tokenStore: "memory", redirectMethod: "none" });
    const anonymous = await app.getUser({ or: "anonymous" });
    expect([anonymous.isAnonymous, anonymous.isRestricted, anonymous.restrictedReason]).toEqual([true, true, { type: "anonymous" }]);
    const signUp = await app.signUpWithCredential({
      email: "ada@example.com",
      password: "correct horse battery",
      noRedirect: true,
      verificationCallbackUrl: "http://localhost:5173/handler/email-verification",
    });
    expect(signUp.status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect([user.id, user.isAnonymous, user.primaryEmail]).toEqual([anonymous.id, false, "ada@example.com"]);
    // The session goes on as the upgraded user's: reads and writes act for that user.
    await user.setDisplayName("Ada");
    expect((await app.getUser({ or: "throw" })).displayName).toBe("Ada");
  });
});
