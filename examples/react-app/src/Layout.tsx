// The frame of every page: the project's name and who is signed in.
import { Suspense, type ReactNode } from "react";
import { useProject, useStackApp, useUser } from "stackkit/react";
import { ErrorBoundary } from "./components/ui.js";
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
  return (
    <nav className="menu">
      <span className="menu-user" title={user.primaryEmail ?? undefined}>
        {user.displayName ?? user.primaryEmail ?? "Signed in"}
      </span>
      <Link href={app.urls.accountSettings}>Account settings</Link>
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
          <ErrorBoundary>
            <Suspense fallback="stackkit example">
              <ProjectName />
            </Suspense>
          </ErrorBoundary>
        </Link>
        <ErrorBoundary>
          <Suspense fallback={<nav className="menu" />}>
            <UserMenu />
          </Suspense>
        </ErrorBoundary>
      </header>
      <main className="content">{children}</main>
      <footer className="footer">
        A customer app built on <code>stackkit</code> and <code>stackkit/react</code>; the handler pages live under <code>/handler</code>.
      </footer>
    </>
  );
}
