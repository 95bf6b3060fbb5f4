// POST from the sign-in form: e-mail and password. The token cookies are set
// through Next's `cookies()` (a route handler may write them), then the
// browser goes back to where it was sent from, or to the form with an error.
import { NextResponse } from "next/server";
import { requestClientApp } from "#lib/stack";

/** Only a path of this app: one leading slash, not `//` or `/\` (which browsers read as another host). */
function localPath(value: FormDataEntryValue | null): string {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) ? value : "/";
}

export async function POST(request: Request) {
  const form = await request.formData();
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const returnTo = localPath(form.get("after_auth_return_to"));
  const app = await requestClientApp();
  const result = await app.signInWithCredential({ email, password, noRedirect: true });
  const target =
    result.status === "ok"
      ? returnTo
      : `/sign-in?error=${encodeURIComponent(result.error.code)}&after_auth_return_to=${encodeURIComponent(returnTo)}`;
  // 303: the browser follows with a GET, so a reload does not post the password again.
  return NextResponse.redirect(new URL(target, request.url), 303);
}
