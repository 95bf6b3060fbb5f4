// /handler/account-settings: everything a signed-in user manages about their
// account. Someone signed out is sent to sign-in and comes back here
// (useUser({ or: "redirect" }) suspends meanwhile).
import { Suspense, type ReactNode } from "react";
import { useUser } from "stackkit/react";
import { Card, ErrorBoundary, Loading } from "../components/ui.js";
import { ApiKeys } from "./ApiKeys.js";
import { ContactChannels } from "./ContactChannels.js";
import { Profile } from "./Profile.js";
import { Passkeys, TwoFactor } from "./Security.js";
import { Sessions } from "./Sessions.js";
import { Teams } from "./Teams.js";

const SECTIONS = [
  ["profile", "Profile"],
  ["emails", "E-mails"],
  ["security", "Passkeys & two-factor"],
  ["sessions", "Sessions"],
  ["teams", "Teams"],
  ["api-keys", "API keys"],
] as const;

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
  // Nobody signed in: off to sign-in, which comes back here afterwards.
  const user = useUser({ or: "redirect" });

  return (
    <div className="settings">
      <aside className="settings-nav">
        <h1>Account settings</h1>
        <nav>
          {SECTIONS.map(([id, title]) => (
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
        <Section id="security" title="Passkeys & two-factor authentication">
          <Passkeys user={user} />
          <TwoFactor user={user} />
        </Section>
        <Section id="sessions" title="Active sessions">
          <Sessions />
        </Section>
        <Section id="teams" title="Teams">
          <Teams user={user} />
        </Section>
        <Section id="api-keys" title="API keys">
          <ApiKeys />
        </Section>
      </div>
    </div>
  );
}
