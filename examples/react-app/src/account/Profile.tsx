// The profile: the user's display name, and what the service says about them.
import { useState, type FormEvent } from "react";
import type { CurrentUser } from "stackkit";
import { useUpdateUser } from "stackkit/react";
import { ErrorNote } from "../components/errors.js";
import { Badge, Button, Field, formatDate, Note } from "../components/ui.js";

export function Profile({ user }: { readonly user: CurrentUser }) {
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [saved, setSaved] = useState(false);
  const save = useUpdateUser();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate({ displayName: displayName.trim() }, { onSuccess: () => setSaved(true) });
  };

  return (
    <form className="form" onSubmit={submit} aria-label="Profile">
      <Field label="Display name" name="displayName" required value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
      <dl className="facts">
        <dt>Primary e-mail</dt>
        <dd>
          {user.primaryEmail ?? "none"}{" "}
          {user.primaryEmail !== null &&
            (user.primaryEmailVerified ? <Badge kind="good">verified</Badge> : <Badge kind="warn">not verified</Badge>)}
        </dd>
        <dt>Signed up</dt>
        <dd>{formatDate(user.signedUpAt)}</dd>
      </dl>
      <div>
        <Button type="submit" busy={save.isPending} disabled={displayName.trim() === "" || displayName === (user.displayName ?? "")}>
          Save
        </Button>
      </div>
      {saved && <Note kind="success">Saved.</Note>}
      <ErrorNote error={save.error} />
    </form>
  );
}
