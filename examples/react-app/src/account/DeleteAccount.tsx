// Deleting the account, when the project lets users do it themselves. It asks
// first; afterwards the session is gone and the page says so (AccountSettings).
import { useDeleteUser } from "stackkit/react";
import { ConfirmButton } from "../components/actions.js";
import { ErrorNote } from "../components/errors.js";

export function DeleteAccount({ onDeleting }: { readonly onDeleting: (deleting: boolean) => void }) {
  const remove = useDeleteUser();
  const run = () => {
    // Said before the request: once the session ends, the page must not send the visitor to sign in.
    onDeleting(true);
    remove.mutate(undefined, { onError: () => onDeleting(false) });
  };
  return (
    <>
      <p className="muted">Your profile, e-mail addresses, sessions, team memberships and API keys are deleted. This cannot be undone.</p>
      <ConfirmButton
        question="Delete your account and everything in it for good?"
        confirm="Delete my account"
        busy={remove.isPending}
        onConfirm={run}
      >
        Delete account
      </ConfirmButton>
      <ErrorNote error={remove.error} onRetry={run} />
    </>
  );
}
