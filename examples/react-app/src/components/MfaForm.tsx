// The second step of a sign-in for a user with two-factor authentication:
// every sign-in method can answer MultiFactorAuthenticationRequired, whose
// attempt code and the six digits of the authenticator app finish the sign-in.
import { useState, type FormEvent } from "react";
import { isKnownError } from "stackkit";
import { useStackApp } from "stackkit/react";
import { ErrorNote } from "./errors.js";
import { Button, Field } from "./ui.js";

/** The attempt code of a MultiFactorAuthenticationRequired error, or null for any other error. */
export function mfaAttemptCode(error: unknown): string | null {
  if (!isKnownError(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) return null;
  const code = error.details?.attempt_code;
  return typeof code === "string" ? code : null;
}

export function MfaForm({ attemptCode }: { readonly attemptCode: string }) {
  const app = useStackApp();
  const [totp, setTotp] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await app.signInWithMfa(totp.trim(), attemptCode);
      if (result.status === "error") setError(result.error);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={submit}>
      <p>Enter the six-digit code from your authenticator app.</p>
      <Field
        label="Authentication code"
        name="totp"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        autoFocus
        value={totp}
        onChange={(e) => setTotp(e.target.value)}
      />
      <Button type="submit" busy={busy}>
        Verify
      </Button>
      <ErrorNote error={error} onRetry={() => void submit()} />
    </form>
  );
}
