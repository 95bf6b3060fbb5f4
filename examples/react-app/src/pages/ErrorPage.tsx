// /handler/error: where the service sends the browser when an OAuth sign-in
// fails (error_redirect_url), with the known error's code and message.
import { useStackApp } from "stackkit/react";
import { Card } from "../components/ui.js";
import { Link, useLocation } from "../router.js";

export function ErrorPage() {
  const app = useStackApp();
  const { search } = useLocation();
  const code = search.get("errorCode") ?? search.get("error");
  const message = search.get("message") ?? search.get("error_description");
  return (
    <Card title="Something went wrong">
      {/* Rendered as text, never as HTML: these come from the URL. */}
      <p>{message ?? "The sign-in could not be completed."}</p>
      {code && (
        <p className="muted">
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
