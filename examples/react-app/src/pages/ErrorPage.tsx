// /handler/error: where the service sends the browser when an OAuth sign-in
// fails (error_redirect_url), with the known error's code. The page shows the
// code's words (describeError), never the message in the URL: that one is the
// service's text for developers, and anyone can put anything in a link.
import { createKnownError } from "stackkit";
import { useStackApp } from "stackkit/react";
import { userFacing } from "../errors.js";
import { Card } from "../components/ui.js";
import { Link, useLocation } from "../router.js";

export function ErrorPage() {
  const app = useStackApp();
  const { search } = useLocation();
  const code = search.get("errorCode") ?? search.get("error");
  const described = code ? userFacing(createKnownError(code)) : null;
  return (
    <Card title={described?.title ?? "Sign-in failed"}>
      <p>{described?.message ?? "The sign-in could not be completed. Please try again."}</p>
      {code && (
        <p className="muted small">
          Error code: <code>{code}</code>
        </p>
      )}
      <div className="actions">
        <Link href={app.urls.signIn} className="button button-primary">
          Try again
        </Link>
        <Link href="/" className="button button-secondary">
          Go home
        </Link>
      </div>
    </Card>
  );
}
