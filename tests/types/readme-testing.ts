// Type test, checked by `make typecheck`: the README's stackkit/testing snippet compiles as written.
import { appsFor, createTestUser, latestLink, signInAs, startEmulator } from "../../testing/index.js"; // in an app: from "stackkit/testing"

export async function readmeTesting(): Promise<string> {
  const emulator = await startEmulator(); // { http: true } for a server on 127.0.0.1
  const app = appsFor(emulator).client(); // the demo project, wired to the emulator
  const user = await createTestUser(emulator, { emailVerified: false }); // a unique e-mail, a password
  await signInAs(app, user); // the app's own sign-in fills its token store
  await (await app.getUser())!.sendVerificationEmail();
  const link = latestLink(emulator, user.email); // also latestEmail, latestCode
  emulator.control.advanceClock(60 * 60 * 1000); // expire tokens and codes; injectFault, requests …
  await emulator.close();
  return link;
}
