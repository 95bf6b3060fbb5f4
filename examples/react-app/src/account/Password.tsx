// The password: changed with the current one, or set for the first time by a
// user who signed up with a provider, a magic link or a passkey. The service
// signs the user out of their other devices either way; this one stays signed in.
import { useState, type FormEvent } from "react";
import type { CurrentUser } from "stackkit";
import { useSetPassword, useUpdatePassword } from "stackkit/react";
import { ErrorNote } from "../components/errors.js";
import { NewPasswordFields, PASSWORDS_DIFFER } from "../components/NewPasswordFields.js";
import { Button, Field, Note, Problem } from "../components/ui.js";

function ChangePassword({ onDone }: { readonly onDone: () => void }) {
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [differ, setDiffer] = useState(false);
  const change = useUpdatePassword();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setDiffer(password !== repeat);
    if (password !== repeat) return;
    change.mutate(
      { oldPassword: current, newPassword: password },
      {
        onSuccess: () => {
          setCurrent("");
          setPassword("");
          setRepeat("");
          onDone();
        },
      },
    );
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Change your password">
      <Field
        label="Current password"
        name="current-password"
        type="password"
        autoComplete="current-password"
        required
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <NewPasswordFields
        label="New password"
        repeatLabel="Repeat the new password"
        password={password}
        repeat={repeat}
        onPassword={setPassword}
        onRepeat={setRepeat}
      />
      <div>
        <Button type="submit" busy={change.isPending}>
          Change password
        </Button>
      </div>
      {differ && <Problem>{PASSWORDS_DIFFER}</Problem>}
      <ErrorNote error={change.error} onRetry={() => submit()} />
    </form>
  );
}

function SetPassword({ onDone }: { readonly onDone: () => void }) {
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [differ, setDiffer] = useState(false);
  const set = useSetPassword();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setDiffer(password !== repeat);
    if (password !== repeat) return;
    set.mutate({ password }, { onSuccess: onDone });
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Set a password">
      <p className="muted">Your account has no password yet. Set one to also sign in with your e-mail address and a password.</p>
      <NewPasswordFields
        label="Password"
        repeatLabel="Repeat the password"
        password={password}
        repeat={repeat}
        onPassword={setPassword}
        onRepeat={setRepeat}
      />
      <div>
        <Button type="submit" busy={set.isPending}>
          Set password
        </Button>
      </div>
      {differ && <Problem>{PASSWORDS_DIFFER}</Problem>}
      <ErrorNote error={set.error} onRetry={() => submit()} />
    </form>
  );
}

export function PasswordSettings({ user }: { readonly user: CurrentUser }) {
  // Kept here: setting a password turns this section into the change form, and the note must survive that.
  const [done, setDone] = useState<"changed" | "set" | null>(null);
  return (
    <>
      {done !== null && (
        <Note kind="success">
          {done === "set" ? "Your password is set." : "Your password is changed."} Your other devices were signed out.
        </Note>
      )}
      {user.hasPassword ? <ChangePassword onDone={() => setDone("changed")} /> : <SetPassword onDone={() => setDone("set")} />}
    </>
  );
}
