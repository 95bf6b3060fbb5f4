// /handler/sign-out: ends the session, then the app goes to after-sign-out.
import { useEffect, useState } from "react";
import type { StackClientApp } from "stackkit";
import { useStackApp } from "stackkit/react";
import { ErrorNote } from "../components/errors.js";
import { Card, Loading } from "../components/ui.js";
import { Link } from "../router.js";

// StrictMode runs effects twice; one sign-out at a time is enough.
let inFlight: Promise<void> | null = null;
function signOutOnce(app: StackClientApp): Promise<void> {
  inFlight ??= app.signOut().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

export function SignOut() {
  const app = useStackApp();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    signOutOnce(app).catch(setError);
  }, [app]);
  const retry = () => {
    setError(null);
    signOutOnce(app).catch(setError);
  };
  return (
    <Card title="Signing out">
      {error === null ? (
        <Loading what="Signing out" />
      ) : (
        <>
          <ErrorNote error={error} onRetry={retry} />
          <p>
            This device is signed out, but the service could not be told. <Link href="/">Go home</Link>
          </p>
        </>
      )}
    </Card>
  );
}
