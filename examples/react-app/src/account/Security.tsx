// Passkeys and two-factor authentication (TOTP) of the signed-in user.
import { useState, type FormEvent } from "react";
import type { CurrentUser } from "stackkit";
import { useProject, useUpdateUser } from "stackkit/react";
import { Badge, Button, ErrorNote, Field, Note } from "../components/ui.js";
import { useAction } from "../hooks.js";
import { base32, newTotpSecret, otpauthUri, verifyTotp } from "./totp.js";

export function Passkeys({ user }: { readonly user: CurrentUser }) {
  const project = useProject();
  const [done, setDone] = useState(false);
  const register = useAction(async () => {
    const result = await user.registerPasskey();
    if (result.status === "error") throw result.error;
    setDone(true);
  }, ["getCurrentUser"]);
  if (!project.config.passkeyEnabled) return <p className="muted">This project does not offer passkeys.</p>;
  return (
    <div className="subsection">
      <h3>
        Passkey {user.passkeyAuthEnabled ? <Badge kind="good">on</Badge> : <Badge>off</Badge>}
      </h3>
      <p className="muted">Sign in with your device's screen lock or a security key instead of a password.</p>
      {done && <Note kind="success">Passkey registered. You can sign in with it from now on.</Note>}
      <ErrorNote error={register.error} />
      <Button kind="secondary" busy={register.isPending} onClick={() => register.mutate(undefined)}>
        Register a passkey
      </Button>
    </div>
  );
}

function EnableTwoFactor({ user, onDone }: { readonly user: CurrentUser; readonly onDone: () => void }) {
  const project = useProject();
  const [secret] = useState(newTotpSecret);
  const [code, setCode] = useState("");
  const [wrong, setWrong] = useState(false);
  const enable = useUpdateUser();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await verifyTotp(secret, code);
    setWrong(!ok);
    if (ok) enable.mutate({ totpMultiFactorSecret: secret }, { onSuccess: onDone });
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Turn on two-factor authentication">
      <p>
        Add this key to your authenticator app, then enter the code it shows:
        <br />
        <code className="secret">{base32(secret).replace(/(.{4})/g, "$1 ").trim()}</code>
      </p>
      <p className="muted small">
        Or open <a href={otpauthUri(secret, user.primaryEmail ?? user.id, project.displayName)}>this otpauth link</a> on a phone.
      </p>
      <Field label="Code from the app" name="totp" inputMode="numeric" pattern="[0-9]{6}" maxLength={6} required value={code} onChange={(e) => setCode(e.target.value)} />
      {wrong && <p className="note note-error">That code does not match; check the key and the clock of your device.</p>}
      <ErrorNote error={enable.error} />
      <div>
        <Button type="submit" busy={enable.isPending}>
          Turn on
        </Button>
      </div>
    </form>
  );
}

export function TwoFactor({ user }: { readonly user: CurrentUser }) {
  const [setting, setSetting] = useState(false);
  const disable = useUpdateUser();
  const on = user.isMultiFactorRequired;
  return (
    <div className="subsection">
      <h3>Two-factor authentication {on ? <Badge kind="good">on</Badge> : <Badge>off</Badge>}</h3>
      <p className="muted">A six-digit code from an authenticator app is asked for at every sign-in.</p>
      <ErrorNote error={disable.error} />
      {on ? (
        <Button kind="danger" busy={disable.isPending} onClick={() => disable.mutate({ totpMultiFactorSecret: null })}>
          Turn off
        </Button>
      ) : setting ? (
        <EnableTwoFactor user={user} onDone={() => setSetting(false)} />
      ) : (
        <Button kind="secondary" onClick={() => setSetting(true)}>
          Set up two-factor authentication
        </Button>
      )}
    </div>
  );
}
