// The user's e-mail addresses: add, verify, make primary, remove (after asking).
import { useState, type FormEvent } from "react";
import type { ContactChannel } from "stackkit";
import { useContactChannels, useCreateContactChannel, useDeleteContactChannel, useUpdateContactChannel } from "stackkit/react";
import { ConfirmButton } from "../components/actions.js";
import { ErrorNote } from "../components/errors.js";
import { Badge, Button, Field, Note } from "../components/ui.js";
import { useAction } from "../hooks.js";

function Channel({ channel }: { readonly channel: ContactChannel }) {
  const [sent, setSent] = useState(false);
  const verify = useAction(async () => {
    await channel.sendVerificationEmail();
    setSent(true);
  }, []);
  const update = useUpdateContactChannel();
  const remove = useDeleteContactChannel();
  return (
    <li className="item">
      <div className="item-main">
        <strong>{channel.value}</strong>
        <div className="badges">
          {channel.isPrimary && <Badge>primary</Badge>}
          {channel.isVerified ? <Badge kind="good">verified</Badge> : <Badge kind="warn">not verified</Badge>}
          {channel.usedForAuth && <Badge>used for sign-in</Badge>}
        </div>
        {sent && <Note kind="success">Verification e-mail sent.</Note>}
        <ErrorNote error={verify.error} onRetry={() => verify.mutate(undefined)} />
        <ErrorNote error={update.error} onRetry={() => update.variables && update.mutate(update.variables)} />
        <ErrorNote error={remove.error} onRetry={() => remove.mutate(channel)} />
      </div>
      <div className="item-actions">
        {!channel.isVerified && (
          <Button kind="link" busy={verify.isPending} onClick={() => verify.mutate(undefined)}>
            Send verification
          </Button>
        )}
        {!channel.isPrimary && (
          <Button kind="link" busy={update.isPending} onClick={() => update.mutate({ channel, update: { isPrimary: true } })}>
            Make primary
          </Button>
        )}
        {!channel.isPrimary && (
          <ConfirmButton
            question={channel.usedForAuth ? "Remove this address? You can no longer sign in with it." : "Remove this address?"}
            confirm="Remove address"
            busy={remove.isPending}
            onConfirm={() => remove.mutate(channel)}
          >
            Remove
          </ConfirmButton>
        )}
      </div>
    </li>
  );
}

export function ContactChannels() {
  const channels = useContactChannels();
  const [value, setValue] = useState("");
  const add = useCreateContactChannel();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    add.mutate({ value: value.trim(), type: "email", usedForAuth: false }, { onSuccess: () => setValue("") });
  };
  return (
    <>
      {channels.length === 0 ? (
        <p className="muted">No e-mail addresses yet.</p>
      ) : (
        <ul className="items">
          {channels.map((channel) => (
            <Channel key={channel.id} channel={channel} />
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={submit} aria-label="Add an e-mail address">
        <Field label="Add an e-mail address" name="email" type="email" required value={value} onChange={(e) => setValue(e.target.value)} />
        <Button type="submit" kind="secondary" busy={add.isPending}>
          Add
        </Button>
      </form>
      <ErrorNote error={add.error} onRetry={() => submit()} />
    </>
  );
}
