// The page for the current path: the home page and the handler pages under
// /handler (the URLs the Stack app redirects to and e-mails link to).
import { Suspense, type ReactNode } from "react";
import { AccountSettings } from "./account/AccountSettings.js";
import { ErrorBoundary, Loading } from "./components/ui.js";
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

const HANDLER_PAGES: Record<string, () => ReactNode> = {
  "sign-in": () => <SignIn />,
  "sign-up": () => <SignUp />,
  "sign-out": () => <SignOut />,
  "oauth-callback": () => <OAuthCallback />,
  "magic-link-callback": () => <MagicLinkCallback />,
  "email-verification": () => <EmailVerification />,
  "password-reset": () => <PasswordReset />,
  "forgot-password": () => <ForgotPassword />,
  "account-settings": () => <AccountSettings />,
  "team-invitation": () => <TeamInvitation />,
  "cli-auth-confirm": () => <CliAuthConfirm />,
  error: () => <ErrorPage />,
};

function pageFor(pathname: string): ReactNode {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return <Home />;
  if (path === "/welcome") return <Home welcome />;
  const handler = /^\/handler\/([a-z-]+)$/.exec(path)?.[1];
  const page = handler === undefined ? undefined : HANDLER_PAGES[handler];
  if (page) return page();
  return (
    <div className="card">
      <h2>Page not found</h2>
      <p>
        Nothing lives at <code>{pathname}</code>. <Link href="/">Go home</Link>
      </p>
    </div>
  );
}

export function App() {
  const { pathname } = useLocation();
  return (
    <Layout>
      {/* A new error boundary per page, so an error on one page does not stick to the next; one Suspense boundary for
          all of them, so that a navigation (a transition) keeps the current page until the next one is ready. */}
      <Suspense fallback={<Loading />}>
        <ErrorBoundary key={pathname}>{pageFor(pathname)}</ErrorBoundary>
      </Suspense>
    </Layout>
  );
}
