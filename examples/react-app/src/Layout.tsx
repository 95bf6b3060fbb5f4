// The frame of every page: the project's name, who is signed in, and the
// banner of an offline browser or an unreachable service. On a phone-width
// screen the header stays one line: the name shortens, the user's name gives
// way to their initial (styles/base.css).
import { Suspense, type ReactNode } from "react";
import { useProject, useStackApp, useUser } from "stackkit/react";
import { APP_NAME } from "./app-name.js";
import { ConnectionBanner } from "./components/Connection.js";
import { ErrorBoundary } from "./components/errors.js";
import { nameOf } from "./components/ui.js";
import { Link } from "./router.js";

function ProjectName() {
  return <>{useProject().displayName}</>;
}

function UserMenu() {
  const app = useStackApp();
  const user = useUser();
  if (user === null) {
    return (
      <nav className="menu">
        <Link href={app.urls.signIn}>Sign in</Link>
        <Link href={app.urls.signUp} className="button button-primary button-small">
          Sign up
        </Link>
      </nav>
    );
  }
  // Without a display name, the e-mail address.
  const name = nameOf(user, "Signed in");
  return (
    <nav className="menu">
      <span className="menu-user" title={user.primaryEmail ?? undefined}>
        <span className="menu-initial" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <span className="menu-name">{name}</span>
      </span>
      <Link href={app.urls.accountSettings} aria-label="Account settings">
        <span className="long-label">Account settings</span>
        <span className="short-label">Account</span>
      </Link>
      <Link href={app.urls.signOut}>Sign out</Link>
    </nav>
  );
}

export function Layout({ children }: { readonly children: ReactNode }) {
  return (
    <>
      <header className="topbar">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>
          {/* Until (or unless) the project answers, the app's own name: the header never shows an error. */}
          <span className="brand-name">
            <ErrorBoundary fallback={APP_NAME}>
              <Suspense fallback={APP_NAME}>
                <ProjectName />
              </Suspense>
            </ErrorBoundary>
          </span>
        </Link>
        <ErrorBoundary fallback={<nav className="menu" />}>
          <Suspense fallback={<nav className="menu" />}>
            <UserMenu />
          </Suspense>
        </ErrorBoundary>
      </header>
      <ConnectionBanner />
      <main className="content">{children}</main>
      <footer className="footer">
        A customer app built on <code>stackkit</code> and <code>stackkit/react</code>; the handler pages live under <code>/handler</code>.
      </footer>
    </>
  );
}
