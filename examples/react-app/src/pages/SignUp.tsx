// /handler/sign-up: a new account with e-mail and password; the app goes to
// after-sign-up once it exists.
import { useState, type FormEvent } from "react";
import { isKnownError } from "stackkit";
import { useProject, useStackApp } from "stackkit/react";
import { NewPasswordFields, PASSWORDS_DIFFER } from "../components/NewPasswordFields.js";
import { OAuthButtons } from "../components/OAuthButtons.js";
import { ErrorNote } from "../components/errors.js";
import { Button, Card, Field, Note, Problem } from "../components/ui.js";
import { Link } from "../router.js";

export function SignUp() {
  const app = useStackApp();
  const project = useProject();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  // Which button started what is in flight: "password", or "oauth:<provider>".
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [differ, setDiffer] = useState(false);

  if (!project.config.signUpEnabled) {
    return (
      <Card title="Sign-up is closed">
        <Note>
          This project does not accept new accounts. <Link href={app.urls.signIn}>Sign in</Link> instead.
        </Note>
      </Card>
    );
  }

  const run = async (key: string, step: () => Promise<{ status: "ok" } | { status: "error"; error: unknown } | void>) => {
    setPending(key);
    setError(null);
    try {
      const result = await step();
      if (result && result.status === "error") setError(result.error);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(null);
    }
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setDiffer(password !== repeat);
    if (password !== repeat) return;
    void run("password", () => app.signUpWithCredential({ email, password }));
  };

  return (
    <Card title={`Create your ${project.displayName} account`}>
      <form className="form" onSubmit={submit}>
        <Field
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <NewPasswordFields
          label="Password"
          repeatLabel="Repeat the password"
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
        />
        <Button type="submit" busy={pending === "password"} disabled={pending !== null}>
          Sign up
        </Button>
        {differ && <Problem>{PASSWORDS_DIFFER}</Problem>}
        <ErrorNote error={error} onRetry={pending === null ? () => submit() : undefined}>
          {/* The address has an account already: the way to it is a link, as every way to another page is. */}
          {isKnownError(error, "USER_EMAIL_ALREADY_EXISTS") && <Link href={app.urls.signIn}>Sign in instead</Link>}
        </ErrorNote>
      </form>
      {project.config.oauthProviders.length > 0 && (
        <>
          <div className="divider">or</div>
          <div className="stack">
            <OAuthButtons providers={project.config.oauthProviders} pending={pending} disabled={pending !== null} run={run} />
          </div>
        </>
      )}
      <p className="muted center">
        Already have an account? <Link href={app.urls.signIn}>Sign in</Link>
      </p>
    </Card>
  );
}
