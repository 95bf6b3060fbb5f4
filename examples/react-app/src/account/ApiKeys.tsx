// The user's API keys: a new key is shown in full once, with a button that
// copies it, then only its last four characters; revoking one asks first, as
// apps using the key stop working at once.
import { useState, type FormEvent } from "react";
import type { UserApiKey } from "stackkit";
import { useApiKeys, useCreateApiKey, useProject, useRevokeApiKey } from "stackkit/react";
import { ConfirmButton, CopyButton } from "../components/actions.js";
import { ErrorNote } from "../components/errors.js";
import { Badge, Button, Field, formatDate } from "../components/ui.js";

const DAY = 24 * 60 * 60 * 1000;

function status(key: UserApiKey) {
  const why = key.whyInvalid();
  if (why === "manually-revoked") return <Badge kind="warn">revoked</Badge>;
  if (why === "expired") return <Badge kind="warn">expired</Badge>;
  return <Badge kind="good">active</Badge>;
}

function NewKey({ value }: { readonly value: string }) {
  return (
    <div className="note note-success new-key" role="status">
      <p>Your new key. Copy it now: it is not shown again.</p>
      <div className="row-between">
        <code className="secret" data-testid="new-api-key">
          {value}
        </code>
        <CopyButton text={value} label="Copy key" />
      </div>
    </div>
  );
}

function KeyList() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  if (keys.length === 0) return <p className="muted">No API keys yet.</p>;
  return (
    <>
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
                <ConfirmButton
                  question="Revoke this key? Apps using it stop working."
                  confirm="Revoke key"
                  busy={revoke.isPending && revoke.variables?.id === key.id}
                  onConfirm={() => revoke.mutate(key)}
                >
                  Revoke
                </ConfirmButton>
              )}
            </div>
          </li>
        ))}
      </ul>
      <ErrorNote error={revoke.error} onRetry={() => revoke.variables && revoke.mutate(revoke.variables)} />
    </>
  );
}

export function ApiKeys() {
  const project = useProject();
  const [description, setDescription] = useState("");
  const [days, setDays] = useState("90");
  const [created, setCreated] = useState<string | null>(null);
  const create = useCreateApiKey();
  if (!project.config.allowUserApiKeys) return <p className="muted">This app does not offer API keys.</p>;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
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
      {created !== null && <NewKey value={created} />}
      <KeyList />
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
      <ErrorNote error={create.error} onRetry={() => submit()} />
    </>
  );
}
