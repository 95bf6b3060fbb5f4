// The home page: who is signed in, or the way to sign in.
import { Suspense } from "react";
import type { CurrentUser } from "stackkit";
import { useProject, useStackApp, useTeams, useUser } from "stackkit/react";
import { Badge, Card, formatDate, Loading, nameOf, Note, SELECTED_TEAM, SelectedTeamBadge } from "../components/ui.js";
import { Link } from "../router.js";

function TeamList({ user }: { readonly user: CurrentUser }) {
  const teams = useTeams();
  if (teams.length === 0) return <p className="muted">You are not in any team yet.</p>;
  const selected = teams.some((team) => user.selectedTeam?.id === team.id);
  return (
    <>
      <ul className="plain-list">
        {teams.map((team) => (
          <li key={team.id}>
            {team.displayName} {user.selectedTeam?.id === team.id && <SelectedTeamBadge />}
          </li>
        ))}
      </ul>
      {selected && <p className="muted small">{SELECTED_TEAM}</p>}
    </>
  );
}

function SignedIn({ user, welcome }: { readonly user: CurrentUser; readonly welcome: boolean }) {
  const app = useStackApp();
  const project = useProject();
  // Without a display name, the user is shown by their e-mail address (as in the header).
  const name = nameOf(user);
  const initial = (user.displayName ?? user.primaryEmail ?? "?").slice(0, 1).toUpperCase();
  return (
    <>
      <Card wide>
        {welcome && (
          <Note kind="success">
            Welcome to {project.displayName}! Your account is ready. <Link href={app.urls.accountSettings}>Set up your profile</Link>
          </Note>
        )}
        <div className="profile">
          {user.profileImageUrl ? (
            <img className="avatar" src={user.profileImageUrl} alt="" />
          ) : (
            <span className="avatar" aria-hidden="true">
              {initial}
            </span>
          )}
          <div>
            <p className="eyebrow">Signed in as</p>
            <h1 className="profile-name">{name}</h1>
            <p className="muted">
              {/* The address once: in the heading when it stands for the name. */}
              {name !== user.primaryEmail && (user.primaryEmail ?? "no e-mail")}{" "}
              {user.primaryEmail !== null &&
                (user.primaryEmailVerified ? <Badge kind="good">verified</Badge> : <Badge kind="warn">not verified</Badge>)}
            </p>
          </div>
        </div>
        <dl className="facts">
          <dt>User id</dt>
          <dd>
            <code>{user.id}</code>
          </dd>
          <dt>Signed up</dt>
          <dd>{formatDate(user.signedUpAt)}</dd>
          <dt>Sign-in methods</dt>
          <dd>
            {[
              user.hasPassword && "password",
              user.otpAuthEnabled && "magic link",
              user.passkeyAuthEnabled && "passkey",
              ...user.oauthProviders.map((p) => p.id),
            ]
              .filter(Boolean)
              .join(", ") || "none"}
          </dd>
          <dt>Two-factor</dt>
          <dd>{user.isMultiFactorRequired ? "on" : "off"}</dd>
        </dl>
        <div className="actions">
          <Link href={app.urls.accountSettings} className="button button-primary">
            Account settings
          </Link>
          <Link href={app.urls.signOut} className="button button-secondary">
            Sign out
          </Link>
        </div>
      </Card>
      <Card title="Your teams" wide>
        <Suspense fallback={<Loading what="Loading teams" />}>
          <TeamList user={user} />
        </Suspense>
      </Card>
    </>
  );
}

function SignedOut() {
  const app = useStackApp();
  return (
    <Card wide>
      <p className="eyebrow">Welcome</p>
      <h1>You are not signed in.</h1>
      <p className="muted">Sign in to see your profile, teams, sessions and API keys.</p>
      <div className="actions">
        <Link href={app.urls.signIn} className="button button-primary">
          Sign in
        </Link>
        <Link href={app.urls.signUp} className="button button-secondary">
          Create an account
        </Link>
      </div>
    </Card>
  );
}

/** `/` (and `/welcome`, where new accounts land after signing up). */
export function Home({ welcome = false }: { readonly welcome?: boolean }) {
  const user = useUser();
  return user === null ? <SignedOut /> : <SignedIn user={user} welcome={welcome} />;
}
