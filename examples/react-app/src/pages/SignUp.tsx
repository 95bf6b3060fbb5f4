// /handler/sign-up: a new account with e-mail and password; the app goes to
// after-sign-up once it exists.
import { useState, type FormEvent } from "react";
import { useProject, useStackApp } from "stackkit/react";
import { Button, Card, ErrorNote, Field, Note } from "../components/ui.js";
import { NewPasswordFields, PASSWORDS_DIFFER } from "../components/NewPasswordFields.js";
import { Link } from "../router.js";

export function SignUp() {
  const app = useStackApp();
  const project = useProject();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (!project.config.signUpEnabled) {
    return (
      <Card title="Sign-up is closed">
        <Note>This project does not accept new accounts. <Link href={app.urls.signIn}>Sign in</Link> instead.</Note>
      </Card>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) {
      setError(new Error(PASSWORDS_DIFFER));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await app.signUpWithCredential({ email, password });
      if (result.status === "error") setError(result.error);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={`Create your ${project.displayName} account`}>
      <form className="form" onSubmit={submit}>
        <Field label="E-mail" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <NewPasswordFields
          label="Password"
          repeatLabel="Repeat the password"
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
        />
        <ErrorNote error={error} />
        <Button type="submit" busy={busy}>
          Sign up
        </Button>
      </form>
      <p className="muted center">
        Already have an account? <Link href={app.urls.signIn}>Sign in</Link>
      </p>
    </Card>
  );
}
