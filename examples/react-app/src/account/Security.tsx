// Passkeys and two-factor authentication (TOTP) of the signed-in user.
import { useEffect, useMemo, useState, type FormEvent } from "react";
import type { CurrentUser } from "stackkit";
import { useProject, useUpdateUser } from "stackkit/react";
import { ErrorNote } from "../components/errors.js";
import { Badge, Button, Field, Note, Problem } from "../components/ui.js";
import { useAction } from "../hooks.js";
import { newTotpSecret, otpauthUri, qrCodeDataUrl, typedSecret, verifyTotp } from "./totp.js";

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
    <div className="subsection" id="passkey">
      <h3>Passkey {user.passkeyAuthEnabled ? <Badge kind="good">on</Badge> : <Badge>off</Badge>}</h3>
      <p className="muted">Sign in with your device's screen lock or a security key instead of a password.</p>
      {done && <Note kind="success">Passkey registered. You can sign in with it from now on.</Note>}
      <Button kind="secondary" busy={register.isPending} onClick={() => register.mutate(undefined)}>
        {user.passkeyAuthEnabled ? "Replace your passkey" : "Register a passkey"}
      </Button>
      <ErrorNote error={register.error} onRetry={() => register.mutate(undefined)} />
    </div>
  );
}

/** The QR code of the otpauth:// URI, drawn by the `qrcode` library, for an authenticator app to scan. */
function QrCode({ value }: { readonly value: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setSrc(null);
    qrCodeDataUrl(value).then(
      (url) => live && setSrc(url),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [value]);
  if (failed) return <p className="muted small">The QR code could not be drawn; type the key below into your app instead.</p>;
  if (src === null) return <div className="qr qr-loading" aria-hidden="true" />;
  return (
    <img
      className="qr"
      src={src}
      width={176}
      height={176}
      alt="QR code of the two-factor key, for an authenticator app"
      data-otpauth={value}
    />
  );
}

function EnableTwoFactor({
  user,
  onDone,
  onCancel,
}: {
  readonly user: CurrentUser;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}) {
  const project = useProject();
  const [secret] = useState(newTotpSecret);
  const uri = useMemo(
    () => otpauthUri(secret, user.primaryEmail ?? user.id, project.displayName),
    [secret, user.primaryEmail, user.id, project.displayName],
  );
  const [code, setCode] = useState("");
  const [wrong, setWrong] = useState(false);
  const enable = useUpdateUser();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ok = verifyTotp(secret, code);
    setWrong(!ok);
    if (ok) enable.mutate({ totpMultiFactorSecret: secret }, { onSuccess: onDone });
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Turn on two-factor authentication">
      <div className="totp-setup">
        <QrCode value={uri} />
        <div>
          <p>Scan this QR code with your authenticator app, or type the key into it:</p>
          <code className="secret" data-testid="totp-secret">
            {typedSecret(uri)}
          </code>
          <p className="muted small">
            On a phone, <a href={uri}>open the key in your authenticator app</a>.
          </p>
        </div>
      </div>
      <Field
        label="Code from the app"
        name="totp"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <div className="actions">
        <Button type="submit" busy={enable.isPending}>
          Turn on
        </Button>
        <Button type="button" kind="secondary" disabled={enable.isPending} onClick={onCancel}>
          Cancel
        </Button>
      </div>
      {wrong && <Problem>That code does not match; check the key and the clock of your device.</Problem>}
      <ErrorNote error={enable.error} />
    </form>
  );
}

export function TwoFactor({ user }: { readonly user: CurrentUser }) {
  const [setting, setSetting] = useState(false);
  const [changed, setChanged] = useState<"on" | "off" | null>(null);
  const disable = useUpdateUser();
  const on = user.isMultiFactorRequired;
  return (
    <div className="subsection" id="two-factor">
      <h3>Two-factor authentication {on ? <Badge kind="good">on</Badge> : <Badge>off</Badge>}</h3>
      <p className="muted">A six-digit code from an authenticator app is asked for at every sign-in.</p>
      {changed === "on" && on && <Note kind="success">Two-factor authentication is on: sign-ins now ask for a code from your app.</Note>}
      {changed === "off" && !on && <Note kind="success">Two-factor authentication is off.</Note>}
      {on ? (
        <Button
          kind="danger"
          busy={disable.isPending}
          onClick={() => disable.mutate({ totpMultiFactorSecret: null }, { onSuccess: () => setChanged("off") })}
        >
          Turn off
        </Button>
      ) : setting ? (
        <EnableTwoFactor
          user={user}
          onDone={() => {
            setSetting(false);
            setChanged("on");
          }}
          onCancel={() => setSetting(false)}
        />
      ) : (
        <Button
          kind="secondary"
          onClick={() => {
            setChanged(null);
            setSetting(true);
          }}
        >
          Set up two-factor authentication
        </Button>
      )}
      <ErrorNote error={disable.error} />
    </div>
  );
}
