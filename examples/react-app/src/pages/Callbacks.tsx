// The pages that links in e-mails and OAuth providers open. Each redeems a
// single-use code once (useOnce), then shows the outcome; after a sign-in the
// app itself goes on to after-sign-in.
import { Suspense, useEffect } from "react";
import { isKnownError } from "stackkit";
import { MfaForm, mfaAttemptCode } from "../components/MfaForm.js";
import { ErrorNote } from "../components/errors.js";
import { Card, Loading, Note } from "../components/ui.js";
import { Link, navigate, useSearchParam } from "../router.js";
import { useStackApp } from "stackkit/react";
import { useOnce } from "../hooks.js";

type Outcome = { readonly status: "ok"; readonly data?: unknown } | { readonly status: "error"; readonly error: unknown };

/** A Result or a thrown error, as one value the page can show. */
async function settle(step: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await step();
  } catch (error) {
    return { status: "error", error };
  }
}

function Failure({ outcome }: { readonly outcome: Outcome }) {
  if (outcome.status === "ok") return null;
  const attemptCode = mfaAttemptCode(outcome.error);
  if (attemptCode !== null) return <MfaForm attemptCode={attemptCode} />;
  return (
    <>
      <ErrorNote error={outcome.error} />
      <p>
        <Link href="/">Go home</Link>
      </p>
    </>
  );
}

function MissingCode() {
  return <Note>This link is incomplete: it carries no code. Open the link from the e-mail again.</Note>;
}

let arrival: string | null = null;

/**
 * The URL the callback page arrived at. The SDK takes code and state (or the error sent back) out of the address
 * bar at once, and a page that suspends on its first render keeps no state: the arrival is kept here, so that the
 * page asks the SDK once per arrival, not again with the cleaned URL.
 */
function callbackArrival(): string {
  const now = new URL(window.location.href);
  if (arrival === null || now.searchParams.has("code") || now.searchParams.has("errorCode")) arrival = now.href;
  return arrival;
}

export function OAuthCallback() {
  const arrivedAt = callbackArrival();
  return (
    <Card title="Signing you in">
      <Suspense fallback={<Loading what="Signing you in" />}>
        <FinishOAuth arrivedAt={arrivedAt} />
      </Suspense>
    </Card>
  );
}

function FinishOAuth({ arrivedAt }: { readonly arrivedAt: string }) {
  const app = useStackApp();
  const outcome = useOnce(["oauth-callback", arrivedAt], () => settle(async () => ({ status: "ok", data: await app.callOAuthCallback() })));
  // A sign-in the service failed and sent back here (2.8.86 does; 2.8.11 sends it to the error page itself): shown
  // where 2.8.11 would have shown it, the error page, which reads the code.
  const sentBack = new URL(arrivedAt).searchParams.get("errorCode");
  useEffect(() => {
    if (outcome.status === "error" && sentBack !== null && isKnownError(outcome.error, sentBack as never)) {
      navigate(`${app.urls.error}?${new URLSearchParams({ errorCode: sentBack })}`, { replace: true });
    }
  }, [outcome, sentBack, app]);
  return (
    <>
      {outcome.status === "ok" && outcome.data === true && <Loading what="Signed in, redirecting" />}
      {outcome.status === "ok" && outcome.data === false && (
        <Note>
          This page finishes a sign-in with an OAuth provider that was started in this browser, and there is none to finish.{" "}
          <Link href={app.urls.signIn}>Sign in</Link>
        </Note>
      )}
      <Failure outcome={outcome} />
    </>
  );
}

function RedeemMagicLink({ code }: { readonly code: string }) {
  const app = useStackApp();
  const outcome = useOnce(["magic-link", code], () => settle(() => app.signInWithMagicLink(code)));
  return outcome.status === "ok" ? <Loading what="Signed in, redirecting" /> : <Failure outcome={outcome} />;
}

export function MagicLinkCallback() {
  const code = useSearchParam("code");
  return <Card title="Signing you in">{code ? <RedeemMagicLink code={code} /> : <MissingCode />}</Card>;
}

/**
 * A verification link opened again: the service answers that its code is used (it is used only by verifying the
 * address), or that the address is verified. Either way there is nothing left to do, which is what the page says.
 */
function alreadyVerified(outcome: Outcome): boolean {
  return (
    outcome.status === "error" &&
    (isKnownError(outcome.error, "VERIFICATION_CODE_ALREADY_USED") || isKnownError(outcome.error, "EMAIL_ALREADY_VERIFIED"))
  );
}

function VerifyEmail({ code }: { readonly code: string }) {
  const app = useStackApp();
  const outcome = useOnce(["email-verification", code], () => settle(() => app.verifyEmail(code)));
  if (alreadyVerified(outcome)) {
    return (
      <Note>
        This e-mail address is already verified: this link was used before. <Link href="/">Continue</Link>
      </Note>
    );
  }
  if (outcome.status === "error") return <Failure outcome={outcome} />;
  return (
    <Note kind="success">
      Your e-mail address is verified. <Link href="/">Continue</Link>
    </Note>
  );
}

export function EmailVerification() {
  const code = useSearchParam("code");
  return <Card title="E-mail verification">{code ? <VerifyEmail code={code} /> : <MissingCode />}</Card>;
}
