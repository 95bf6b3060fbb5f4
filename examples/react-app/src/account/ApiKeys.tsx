// The user's API keys: a new key is shown in full once, then only its last four
// characters; a key can be revoked for good.
import { useState, type FormEvent } from "react";
import type { UserApiKey } from "stackkit";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "stackkit/react";
import { Badge, Button, ErrorNote, Field, formatDate, Note } from "../components/ui.js";

const DAY = 24 * 60 * 60 * 1000;

function status(key: UserApiKey) {
  const why = key.whyInvalid();
  if (why === "manually-revoked") return <Badge kind="warn">revoked</Badge>;
  if (why === "expired") return <Badge kind="warn">expired</Badge>;
  return <Badge kind="good">active</Badge>;
}

export function ApiKeys() {
  const keys = useApiKeys();
  const [description, setDescription] = useState("");
  const [days, setDays] = useState("90");
  const [created, setCreated] = useState<string | null>(null);
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresAt = days === "never" ? null : new Date(Date.now() + Number(days) * DAY);
    create.mutate(
      { description: description.trim(), expiresAt },
      {
        onSuccess: (key) => {
          setCreated(key.value);
          setDescription("");
        },
      },
    );
  };

  return (
    <>
      {created !== null && (
        <Note kind="success">
          Your new key — copy it now, it is not shown again: <code className="secret">{created}</code>
        </Note>
      )}
      {keys.length === 0 ? (
        <p className="muted">No API keys yet.</p>
      ) : (
        <ul className="items">
          {keys.map((key) => (
            <li key={key.id} className="item">
              <div className="item-main">
                <strong>{key.description || "(no description)"}</strong>
                <div className="badges">
                  {status(key)}
                  <code>…{key.value.lastFour}</code>
                </div>
                <span className="muted small">
                  Created {formatDate(key.createdAt)} · expires {formatDate(key.expiresAt)}
                </span>
              </div>
              <div className="item-actions">
                {key.isValid() && (
                  <Button kind="danger" busy={revoke.isPending && revoke.variables?.id === key.id} onClick={() => revoke.mutate(key)}>
                    Revoke
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={submit} aria-label="Create an API key">
        <Field label="Description" name="description" required value={description} onChange={(e) => setDescription(e.target.value)} />
        <label className="field field-narrow">
          <span>Expires</span>
          <select value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
            <option value="never">never</option>
          </select>
        </label>
        <Button type="submit" kind="secondary" busy={create.isPending}>
          Create key
        </Button>
      </form>
      <ErrorNote error={create.error ?? revoke.error} />
    </>
  );
}
