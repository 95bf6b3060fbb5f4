// /handler/forgot-password sends the reset e-mail; /handler/password-reset is
// the page that e-mail opens, where the user chooses a new password.
import { useState, type FormEvent } from "react";
import { ErrorNote } from "../components/errors.js";
import { Button, Card, Field, Note, Problem } from "../components/ui.js";
import { Link, useSearchParam } from "../router.js";
import { NewPasswordFields, PASSWORDS_DIFFER } from "../components/NewPasswordFields.js";
import { useStackApp } from "stackkit/react";
import { useOnce } from "../hooks.js";

export function ForgotPassword() {
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // An unknown address (a UserNotFound result) gets the same answer, so the page tells nobody who has an account.
      await app.sendForgotPasswordEmail(email);
      setSent(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Reset your password">
      {sent ? (
        <Note kind="success">If an account uses {email}, an e-mail with a link to reset its password is on its way.</Note>
      ) : (
        <form className="form" onSubmit={submit}>
          <p className="muted">We will e-mail you a link to choose a new password.</p>
          <Field
            label="E-mail"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" busy={busy}>
            Send the link
          </Button>
          <ErrorNote error={error} onRetry={() => void submit()} />
        </form>
      )}
      <p className="muted center">
        <Link href={app.urls.signIn}>Back to sign-in</Link>
      </p>
    </Card>
  );
}

function NewPasswordForm({ code }: { readonly code: string }) {
  const app = useStackApp();
  // Checked when the page opens, so a stale link says so before the user types anything.
  const check = useOnce(["password-reset-check", code], () => app.verifyPasswordResetCode(code));
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [differ, setDiffer] = useState(false);

  if (check.status === "error") return <ErrorNote error={check.error} />;
  if (done) {
    return (
      <Note kind="success">
        Your password is changed. <Link href={app.urls.signIn}>Sign in</Link> with it.
      </Note>
    );
  }

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setDiffer(password !== repeat);
    if (password !== repeat) return;
    setBusy(true);
    setError(null);
    try {
      const result = await app.resetPassword({ code, password });
      if (result.status === "ok") setDone(true);
      else setError(result.error);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={submit}>
      <NewPasswordFields
        label="New password"
        repeatLabel="Repeat the new password"
        password={password}
        repeat={repeat}
        onPassword={setPassword}
        onRepeat={setRepeat}
      />
      <Button type="submit" busy={busy}>
        Set the new password
      </Button>
      {differ && <Problem>{PASSWORDS_DIFFER}</Problem>}
      <ErrorNote error={error} onRetry={() => void submit()} />
    </form>
  );
}

export function PasswordReset() {
  const code = useSearchParam("code");
  return (
    <Card title="Choose a new password">
      {code ? (
        <NewPasswordForm code={code} />
      ) : (
        <Note>This link is incomplete: it carries no code. Open the link from the e-mail again.</Note>
      )}
    </Card>
  );
}
