// /handler/sign-in: every sign-in method the project enables. After a sign-in
// the app itself goes to after-sign-in (or the page that sent the user here).
import { useState, type FormEvent } from "react";
import { useProject, useStackApp, useUser } from "stackkit/react";
import { MfaForm, mfaAttemptCode } from "../components/MfaForm.js";
import { OAuthButtons } from "../components/OAuthButtons.js";
import { ErrorNote } from "../components/errors.js";
import { Button, Card, Field, Note } from "../components/ui.js";
import { Link } from "../router.js";

type Step = () => Promise<{ status: "ok" } | { status: "error"; error: unknown } | void>;

/** Runs a sign-in step; an error Result or a thrown error is shown, a second factor asked for. */
function useSignInStep() {
  // Which button started the step in flight (null: none), so that only that button says it is busy.
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attemptCode, setAttemptCode] = useState<string | null>(null);
  // The last step, for "Try again" after a failure that may pass (the network, a busy service).
  const [last, setLast] = useState<{ readonly key: string; readonly step: Step } | null>(null);
  const run = async (key: string, step: Step) => {
    setLast({ key, step });
    setPending(key);
    setError(null);
    try {
      const result = await step();
      if (result && result.status === "error") {
        const mfa = mfaAttemptCode(result.error);
        if (mfa !== null) setAttemptCode(mfa);
        else setError(result.error);
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(null);
    }
  };
  const retry = () => {
    if (last !== null) void run(last.key, last.step);
  };
  return { busy: pending !== null, pending, error, attemptCode, run, retry };
}

function PasswordForm({ step }: { readonly step: ReturnType<typeof useSignInStep> }) {
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void step.run("password", () => app.signInWithCredential({ email, password }));
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Sign in with e-mail and password">
      <Field
        label="E-mail"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <div className="row-between">
        <Link href={app.urls.forgotPassword}>Forgot password?</Link>
      </div>
      <Button type="submit" busy={step.pending === "password"} disabled={step.busy}>
        Sign in
      </Button>
    </form>
  );
}

function MagicLinkForm({ step }: { readonly step: ReturnType<typeof useSignInStep> }) {
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [nonce, setNonce] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const send = (event: FormEvent) => {
    event.preventDefault();
    void step.run("magic-link", async () => {
      const result = await app.sendMagicLinkEmail(email);
      if (result.status === "ok") setNonce(result.data.nonce);
      return result;
    });
  };
  // The e-mail's six characters followed by the nonce make the code the link carries.
  const enter = (event: FormEvent) => {
    event.preventDefault();
    if (nonce !== null) void step.run("magic-link-code", () => app.signInWithMagicLink(code.trim() + nonce));
  };
  if (nonce === null) {
    return (
      <form className="form" onSubmit={send} aria-label="Sign in with a magic link">
        <Field
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button type="submit" busy={step.pending === "magic-link"} disabled={step.busy}>
          Send me a sign-in link
        </Button>
      </form>
    );
  }
  return (
    <form className="form" onSubmit={enter}>
      <Note kind="success">We sent a link to {email}. Open it, or type the code from the e-mail here.</Note>
      <Field label="Code" name="code" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
      <Button type="submit" busy={step.pending === "magic-link-code"} disabled={step.busy}>
        Sign in with the code
      </Button>
    </form>
  );
}

export function SignIn() {
  const app = useStackApp();
  const user = useUser();
  const project = useProject();
  const step = useSignInStep();
  const [tab, setTab] = useState<"password" | "magic-link">(project.config.credentialEnabled ? "password" : "magic-link");
  const { config } = project;

  if (user !== null && !step.busy) {
    return (
      <Card title="You are signed in">
        <p>
          You are signed in as <strong>{user.displayName ?? user.primaryEmail}</strong>. <Link href="/">Go home</Link> or{" "}
          <Link href={app.urls.signOut}>sign out</Link>.
        </p>
      </Card>
    );
  }
  if (step.attemptCode !== null) {
    return (
      <Card title="Two-factor authentication">
        <MfaForm attemptCode={step.attemptCode} />
      </Card>
    );
  }
  const tabs = [config.credentialEnabled && "password", config.magicLinkEnabled && "magic-link"].filter(Boolean);
  return (
    <Card title={`Sign in to ${project.displayName}`}>
      {tabs.length > 1 && (
        <div className="tabs" role="tablist">
          <button role="tab" aria-selected={tab === "password"} onClick={() => setTab("password")}>
            Password
          </button>
          <button role="tab" aria-selected={tab === "magic-link"} onClick={() => setTab("magic-link")}>
            Magic link
          </button>
        </div>
      )}
      {tab === "password" && config.credentialEnabled && <PasswordForm step={step} />}
      {tab === "magic-link" && config.magicLinkEnabled && <MagicLinkForm step={step} />}
      <ErrorNote error={step.error} onRetry={step.retry} />
      {(config.oauthProviders.length > 0 || config.passkeyEnabled) && <div className="divider">or</div>}
      <div className="stack">
        <OAuthButtons providers={config.oauthProviders} pending={step.pending} disabled={step.busy} run={step.run} />
        {config.passkeyEnabled && (
          <Button
            type="button"
            kind="secondary"
            busy={step.pending === "passkey"}
            disabled={step.busy}
            onClick={() => void step.run("passkey", () => app.signInWithPasskey())}
          >
            Sign in with a passkey
          </Button>
        )}
      </div>
      {config.signUpEnabled && (
        <p className="muted center">
          No account yet? <Link href={app.urls.signUp}>Sign up</Link>
        </p>
      )}
    </Card>
  );
}
