// Type test, checked by `make typecheck`: the README's quickstart compiles as written.
import { KnownErrors, StackClientApp } from "../../runtime/index.js"; // in an app: from "stackkit"

declare const email: string;
declare const password: string;
declare const totpFromTheUser: string;
declare function showWrongPassword(): void;

export async function quickstart(): Promise<void> {
  const app = new StackClientApp({
    projectId: "<your project id>",
    publishableClientKey: "<your publishable client key>",
    tokenStore: "cookie",
  });
  const result = await app.signInWithCredential({ email, password });
  if (result.status === "error") {
    if (result.error instanceof KnownErrors.EmailPasswordMismatch) showWrongPassword();
    if (result.error instanceof KnownErrors.MultiFactorAuthenticationRequired) {
      await app.signInWithMfa(totpFromTheUser, result.error.details!.attempt_code);
    }
  }
  const user = await app.getUser({ or: "redirect" });
  console.log(user.displayName, user.primaryEmail);
  for (const team of await user.listTeams()) console.log(team.displayName);
  const { data: project } = await app.api.GET("/projects/current");
  console.log(project?.display_name);
}
