// "Continue with …" for each OAuth provider the project enables. The browser
// leaves for the provider and comes back to /handler/oauth-callback, which
// finishes the sign-in (pages/Callbacks.tsx). The page that sent the user to
// sign in (after_auth_return_to) is handed to the flow, so that the callback
// lands there instead of after-sign-in / after-sign-up.
import { useStackApp } from "stackkit/react";
import { useSearchParam } from "../router.js";
import { Button } from "./ui.js";

const PROVIDER_NAMES: Record<string, string> = {
  github: "GitHub",
  google: "Google",
  microsoft: "Microsoft",
  apple: "Apple",
  gitlab: "GitLab",
  facebook: "Facebook",
  discord: "Discord",
  spotify: "Spotify",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  x: "X",
};

export function providerName(id: string): string {
  return PROVIDER_NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

/** A path of this app (not `//host…`), as after_auth_return_to carries it; anything else is ignored. */
function ownPath(value: string | null): string | undefined {
  return value !== null && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\") ? value : undefined;
}

type Step = () => Promise<{ status: "ok" } | { status: "error"; error: unknown } | void>;

export function OAuthButtons({
  providers,
  pending,
  disabled,
  run,
}: {
  readonly providers: readonly { readonly id: string }[];
  /** The key of the step in flight; `oauth:<id>` is this component's. */
  readonly pending: string | null;
  readonly disabled: boolean;
  readonly run: (key: string, step: Step) => Promise<void>;
}) {
  const app = useStackApp();
  const returnTo = ownPath(useSearchParam("after_auth_return_to"));
  return (
    <>
      {providers.map(({ id }) => (
        <Button
          key={id}
          type="button"
          kind="secondary"
          busy={pending === `oauth:${id}`}
          disabled={disabled}
          onClick={() => void run(`oauth:${id}`, () => app.signInWithOAuth(id, returnTo === undefined ? {} : { returnTo }))}
        >
          Continue with {providerName(id)}
        </Button>
      ))}
    </>
  );
}
