// /handler/account-settings: everything a signed-in user manages about their
// account. Someone signed out is sent to sign-in and comes back here
// (useUser({ or: "redirect" }) suspends meanwhile).
import { Suspense, useState, type ReactNode } from "react";
import { useProject, useUser } from "stackkit/react";
import { ErrorBoundary } from "../components/errors.js";
import { Card, Loading, Note } from "../components/ui.js";
import { Link } from "../router.js";
import { ApiKeys } from "./ApiKeys.js";
import { ConnectedAccounts } from "./ConnectedAccounts.js";
import { ContactChannels } from "./ContactChannels.js";
import { DeleteAccount } from "./DeleteAccount.js";
import { PasswordSettings } from "./Password.js";
import { Profile } from "./Profile.js";
import { Passkeys, TwoFactor } from "./Security.js";
import { Sessions } from "./Sessions.js";
import { Teams } from "./Teams.js";

/** One section; a failure or a slow list stays inside it. */
function Section({ id, title, children }: { readonly id: string; readonly title: string; readonly children: ReactNode }) {
  return (
    <div id={id} className="settings-section">
      <Card title={title} wide>
        <ErrorBoundary>
          <Suspense fallback={<Loading />}>{children}</Suspense>
        </ErrorBoundary>
      </Card>
    </div>
  );
}

export function AccountSettings() {
  const project = useProject();
  // Set while the account is being deleted: the user then disappears, and this page says so instead of sending
  // the visitor to sign in.
  const [deleting, setDeleting] = useState(false);
  // Nobody signed in: off to sign-in, which comes back here afterwards.
  const user = useUser(deleting ? {} : { or: "redirect" });
  if (user === null) {
    return (
      <Card title="Your account is deleted">
        <Note kind="success">Your account and everything in it are gone. Thank you for having been with us.</Note>
        <p>
          <Link href="/">Go home</Link>
        </p>
      </Card>
    );
  }

  const canDelete = project.config.clientUserDeletionEnabled;
  const sections: (readonly [id: string, title: string])[] = [
    ["profile", "Profile"],
    ["emails", "E-mails"],
    ["password", "Password"],
    ["security", "Passkeys & two-factor"],
    ["connected-accounts", "Connected accounts"],
    ["sessions", "Sessions"],
    ["teams", "Teams"],
    ["api-keys", "API keys"],
    ...(canDelete ? ([["delete-account", "Delete account"]] as const) : []),
  ];
  return (
    <div className="settings">
      <aside className="settings-nav">
        <h1>Account settings</h1>
        <nav>
          {sections.map(([id, title]) => (
            <a key={id} href={`#${id}`}>
              {title}
            </a>
          ))}
        </nav>
      </aside>
      <div className="settings-body">
        <Section id="profile" title="Profile">
          <Profile user={user} />
        </Section>
        <Section id="emails" title="E-mail addresses">
          <ContactChannels />
        </Section>
        <Section id="password" title="Password">
          <PasswordSettings user={user} />
        </Section>
        <Section id="security" title="Passkeys & two-factor authentication">
          <Passkeys user={user} />
          <TwoFactor user={user} />
        </Section>
        <Section id="connected-accounts" title="Connected accounts">
          <ConnectedAccounts user={user} />
        </Section>
        <Section id="sessions" title="Active sessions">
          <Sessions user={user} />
        </Section>
        <Section id="teams" title="Teams">
          <Teams user={user} />
        </Section>
        <Section id="api-keys" title="API keys">
          <ApiKeys />
        </Section>
        {canDelete && (
          <Section id="delete-account" title="Delete account">
            <DeleteAccount onDeleting={setDeleting} />
          </Section>
        )}
      </div>
    </div>
  );
}
