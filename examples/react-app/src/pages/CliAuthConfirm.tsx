// /handler/cli-auth-confirm: a command-line tool waits for this browser to hand
// over the signed-in user's session (promptCliLogin on the tool's side).
import { useState } from "react";
import { useStackApp, useUser } from "stackkit/react";
import { ErrorNote } from "../components/errors.js";
import { Button, Card, Note } from "../components/ui.js";
import { useAction } from "../hooks.js";
import { Link, useSearchParam } from "../router.js";

function Confirm({ loginCode }: { readonly loginCode: string }) {
  const app = useStackApp();
  // Only a signed-in user can hand a session over: sign in first, then come back here.
  const user = useUser({ or: "redirect" });
  const [done, setDone] = useState(false);
  const confirm = useAction(async () => {
    const result = await app.completeCliLogin(loginCode);
    if (result.status === "error") throw result.error;
    setDone(true);
  }, []);
  if (done)
    return (
      <Note kind="success">The command-line tool is signed in as {user.primaryEmail ?? user.displayName}. You can close this tab.</Note>
    );
  return (
    <>
      <p>
        A command-line tool asks to sign in as <strong>{user.displayName ?? user.primaryEmail}</strong>. Only confirm if you started it
        yourself just now.
      </p>
      <div className="actions">
        <Button busy={confirm.isPending} onClick={() => confirm.mutate(undefined)}>
          Confirm sign-in
        </Button>
        <Link href="/" className="button button-secondary">
          Cancel
        </Link>
      </div>
      <ErrorNote error={confirm.error} onRetry={() => confirm.mutate(undefined)} />
    </>
  );
}

export function CliAuthConfirm() {
  const loginCode = useSearchParam("login_code");
  return (
    <Card title="Sign in a command-line tool">
      {loginCode ? (
        <Confirm loginCode={loginCode} />
      ) : (
        <Note>This link carries no login code. Start the login from your terminal again.</Note>
      )}
    </Card>
  );
}
