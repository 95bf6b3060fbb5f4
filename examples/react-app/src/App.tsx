// The page for the current path: the home page and the handler pages under
// /handler (the URLs the Stack app redirects to and e-mails link to), each with
// the title the browser's tab shows.
import { Suspense, useEffect, type ReactNode } from "react";
import { AccountSettings } from "./account/AccountSettings.js";
import { APP_NAME } from "./app-name.js";
import { ErrorBoundary } from "./components/errors.js";
import { Card, Loading } from "./components/ui.js";
import { Layout } from "./Layout.js";
import { CliAuthConfirm } from "./pages/CliAuthConfirm.js";
import { EmailVerification, MagicLinkCallback, OAuthCallback } from "./pages/Callbacks.js";
import { ErrorPage } from "./pages/ErrorPage.js";
import { ForgotPassword, PasswordReset } from "./pages/Password.js";
import { Home } from "./pages/Home.js";
import { SignIn } from "./pages/SignIn.js";
import { SignOut } from "./pages/SignOut.js";
import { SignUp } from "./pages/SignUp.js";
import { TeamInvitation } from "./pages/TeamInvitation.js";
import { Link, useLocation } from "./router.js";

interface Page {
  readonly title: string;
  readonly render: () => ReactNode;
}

const HANDLER_PAGES: Record<string, Page> = {
  "sign-in": { title: "Sign in", render: () => <SignIn /> },
  "sign-up": { title: "Create an account", render: () => <SignUp /> },
  "sign-out": { title: "Signing out", render: () => <SignOut /> },
  "oauth-callback": { title: "Signing you in", render: () => <OAuthCallback /> },
  "magic-link-callback": { title: "Signing you in", render: () => <MagicLinkCallback /> },
  "email-verification": { title: "E-mail verification", render: () => <EmailVerification /> },
  "password-reset": { title: "Choose a new password", render: () => <PasswordReset /> },
  "forgot-password": { title: "Reset your password", render: () => <ForgotPassword /> },
  "account-settings": { title: "Account settings", render: () => <AccountSettings /> },
  "team-invitation": { title: "Team invitation", render: () => <TeamInvitation /> },
  "cli-auth-confirm": { title: "Command-line sign-in", render: () => <CliAuthConfirm /> },
  error: { title: "Sign-in failed", render: () => <ErrorPage /> },
};

function pageFor(pathname: string): Page {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return { title: "Home", render: () => <Home /> };
  if (path === "/welcome") return { title: "Welcome", render: () => <Home welcome /> };
  const handler = /^\/handler\/([a-z-]+)$/.exec(path)?.[1];
  const page = handler === undefined ? undefined : HANDLER_PAGES[handler];
  return (
    page ?? {
      title: "Page not found",
      render: () => (
        <Card title="Page not found">
          <p>
            Nothing lives at <code>{pathname}</code>. <Link href="/">Go home</Link>
          </p>
        </Card>
      ),
    }
  );
}

export function App() {
  const { pathname } = useLocation();
  const page = pageFor(pathname);
  useEffect(() => {
    document.title = `${page.title} · ${APP_NAME}`;
  }, [page.title]);
  return (
    <Layout>
      {/* A new error boundary per page, so an error on one page does not stick to the next; one Suspense boundary for
          all of them, so that a navigation (a transition) keeps the current page until the next one is ready. */}
      <Suspense fallback={<Loading />}>
        <ErrorBoundary key={pathname} variant="page">
          {page.render()}
        </ErrorBoundary>
      </Suspense>
    </Layout>
  );
}
