// The OAuth provider accounts connected to the user (GitHub, Google, …), and a
// way to connect one of the other providers the project offers: the browser
// goes to the provider and comes back here. The service keeps connections for
// good, so there is nothing to disconnect.
import type { CurrentUser } from "stackkit";
import { useProject } from "stackkit/react";
import { ErrorNote } from "../components/errors.js";
import { providerName } from "../components/OAuthButtons.js";
import { Badge, Button } from "../components/ui.js";
import { useAction } from "../hooks.js";

export function ConnectedAccounts({ user }: { readonly user: CurrentUser }) {
  const project = useProject();
  // or: "redirect" starts the provider's link flow when the account is not connected yet; the page then leaves.
  const connect = useAction(
    async (providerId: string) => {
      await user.getConnectedAccount(providerId, { or: "redirect" });
    },
    ["getCurrentUser"],
  );
  const others = project.config.oauthProviders.filter((provider) => !user.oauthProviders.some((account) => account.id === provider.id));
  if (user.oauthProviders.length === 0 && others.length === 0) {
    return <p className="muted">This app offers no sign-in providers to connect.</p>;
  }
  return (
    <>
      <ul className="items">
        {user.oauthProviders.map((account) => (
          <li key={`${account.id}:${account.accountId}`} className="item">
            <div className="item-main">
              <strong>{providerName(account.id)}</strong>
              <span className="muted small">{account.email ?? `Account ${account.accountId}`}</span>
            </div>
            <Badge kind="good">connected</Badge>
          </li>
        ))}
        {others.map((provider) => (
          <li key={provider.id} className="item">
            <div className="item-main">
              <strong>{providerName(provider.id)}</strong>
              <span className="muted small">Not connected</span>
            </div>
            <div className="item-actions">
              <Button
                kind="secondary"
                busy={connect.isPending && connect.variables === provider.id}
                disabled={connect.isPending}
                onClick={() => connect.mutate(provider.id)}
              >
                Connect {providerName(provider.id)}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <ErrorNote error={connect.error} onRetry={() => connect.variables !== undefined && connect.mutate(connect.variables)} />
    </>
  );
}
