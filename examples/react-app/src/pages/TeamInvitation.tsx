// /handler/team-invitation: the page an invitation e-mail opens. The service
// shows an invitation only to a signed-in user, so anyone else signs in first
// and comes back here; then the page names the team and the user joins it.
import { useState } from "react";
import { useStackApp, useUser } from "stackkit/react";
import { ErrorNote } from "../components/errors.js";
import { Button, Card, Note } from "../components/ui.js";
import { useAction, useOnce } from "../hooks.js";
import { Link, useSearchParam } from "../router.js";

function Invitation({ code }: { readonly code: string }) {
  const app = useStackApp();
  const details = useOnce(["team-invitation-details", code], () => app.getTeamInvitationDetails(code));
  const [joined, setJoined] = useState(false);
  const accept = useAction(async () => {
    const result = await app.acceptTeamInvitation(code);
    if (result.status === "error") throw result.error;
    setJoined(true);
  }, ["listTeams", "getCurrentUser"]);

  if (details.status === "error") return <ErrorNote error={details.error} />;
  const team = <strong>{details.data.teamDisplayName}</strong>;
  if (joined) {
    return (
      <Note kind="success">
        You joined {team}. <Link href="/">Go home</Link>
      </Note>
    );
  }
  return (
    <>
      <p>You are invited to join {team}.</p>
      <div className="actions">
        <Button busy={accept.isPending} onClick={() => accept.mutate(undefined)}>
          Join {details.data.teamDisplayName}
        </Button>
        <Link href="/" className="button button-secondary">
          Not now
        </Link>
      </div>
      <ErrorNote error={accept.error} onRetry={() => accept.mutate(undefined)} />
    </>
  );
}

export function TeamInvitation() {
  const app = useStackApp();
  const user = useUser();
  const code = useSearchParam("code");
  let body;
  if (!code) body = <Note>This link is incomplete: it carries no code. Open the link from the e-mail again.</Note>;
  else if (user !== null) body = <Invitation code={code} />;
  else {
    body = (
      <>
        <p>You are invited to join a team. Sign in, or create an account, to see the invitation and accept it.</p>
        {/* redirectToSignIn adds after_auth_return_to, so the sign-in comes back to this page. */}
        <div className="actions">
          <Button onClick={() => void app.redirectToSignIn()}>Sign in</Button>
          <Button kind="secondary" onClick={() => void app.redirectToSignUp()}>
            Create an account
          </Button>
        </div>
      </>
    );
  }
  return <Card title="Team invitation">{body}</Card>;
}
