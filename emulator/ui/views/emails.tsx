// The mailbox, joined in: every e-mail the emulator captured for the project, newest first, with
// its links and codes one click away (the codes the emulator issued to the recipient, matched by
// the link or code the e-mail carries). `/mailbox` leads here; the Inbucket API stays as it was.
import { useState } from "react";
import { api } from "../api.js";
import { CopyButton, ErrorLine, Section, time, useLoad } from "../components.js";
import type { CodeRecord, EmailRecord } from "../../engine/store.js";

/** The http(s) links of a text, each once. */
function linksOf(text: string): string[] {
  return [...new Set([...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((match) => match[0].replace(/[.,;:!?)\]]+$/, "")))];
}

export function EmailsView({ projectId, to }: { projectId: string; to: string | null }) {
  const emails = useLoad(() => api.emails(projectId), [projectId]);
  const [filter, setFilter] = useState(to ?? "");
  const wanted = filter.trim().toLowerCase();
  const shown = (emails.data ?? [])
    .filter(
      (email) =>
        wanted === "" || email.to.some((address) => address.toLowerCase().includes(wanted)) || email.subject.toLowerCase().includes(wanted),
    )
    .reverse();
  return (
    <Section
      title="E-mails"
      actions={
        <>
          <input
            type="search"
            placeholder="Filter by recipient or subject"
            aria-label="Filter e-mails"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
          <button type="button" onClick={emails.reload}>
            Refresh
          </button>
        </>
      }
    >
      <ErrorLine error={emails.error} />
      {emails.data && shown.length === 0 ? <p className="muted">No e-mail yet.</p> : null}
      {shown.map((email) => (
        <Email key={email.id} email={email} />
      ))}
    </Section>
  );
}

function Email({ email }: { email: EmailRecord }) {
  const codes = useLoad(() => Promise.all(email.to.map((address) => api.codes(address))).then((lists) => lists.flat()), [email.id]);
  const links = linksOf(email.text);
  // A code belongs to this e-mail when the e-mail carries its link, or its one-time password (the code's first six characters).
  const mine = (codes.data ?? []).filter(
    (code: CodeRecord) => (code.link !== null && links.includes(code.link)) || email.text.includes(code.code.slice(0, 6).toUpperCase()),
  );
  return (
    <article className="email" aria-label={email.subject}>
      <header>
        <h3>{email.subject}</h3>
        <p className="muted">
          To {email.to.join(", ")} · from {email.from} · {time(email.sent_at_millis)}
        </p>
      </header>
      <div className="email-actions">
        {links.map((link) => (
          <span key={link} className="link-actions">
            <a href={link} target="_blank" rel="noreferrer noopener" className="button">
              Open link
            </a>
            <CopyButton value={link} label="Copy link" />
          </span>
        ))}
        {mine.map((code) => (
          <span key={code.code} className="link-actions">
            <span className="muted">{code.kind}</span>
            <CopyButton value={code.code} label="Copy code" />
            {code.kind === "magic_link" ? <CopyButton value={code.code.slice(0, 6).toUpperCase()} label="Copy one-time password" /> : null}
            {code.used_at_millis !== null ? <span className="muted">used</span> : null}
          </span>
        ))}
      </div>
      <ErrorLine error={codes.error} />
      <pre className="email-text">{email.text}</pre>
    </article>
  );
}
