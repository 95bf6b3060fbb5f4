// The few building blocks every page uses: a card, a labelled field, a button
// that shows it is busy, notes and badges. Errors have their own (errors.tsx).
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from "react";

export function Card({ title, children, wide }: { readonly title?: ReactNode; readonly children: ReactNode; readonly wide?: boolean }) {
  return (
    <section className={wide ? "card card-wide" : "card"}>
      {title !== undefined && <h2>{title}</h2>}
      {children}
    </section>
  );
}

export function Field({ label, ...input }: InputHTMLAttributes<HTMLInputElement> & { readonly label: string }) {
  return (
    <label className="field">
      <span>{label}</span>
      <input {...input} />
    </label>
  );
}

export type ButtonKind = "primary" | "secondary" | "danger" | "link";

/**
 * A button; `busy` is for the one button whose action is in flight (it says
 * "Please wait…"), the others of the form are only `disabled` meanwhile.
 */
export function Button({
  busy,
  kind = "primary",
  children,
  disabled,
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { readonly busy?: boolean; readonly kind?: ButtonKind }) {
  return (
    <button
      className={`button button-${kind}${className ? ` ${className}` : ""}`}
      {...rest}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
    >
      {busy ? "Please wait…" : children}
    </button>
  );
}

export function Note({ children, kind = "info" }: { readonly children: ReactNode; readonly kind?: "info" | "success" }) {
  return (
    <p className={`note note-${kind}`} role="status">
      {children}
    </p>
  );
}

/** Something the page itself found wrong before sending anything (two passwords that differ). */
export function Problem({ children }: { readonly children: ReactNode }) {
  return (
    <p className="note note-error" role="alert">
      {children}
    </p>
  );
}

export function Loading({ what = "Loading" }: { readonly what?: string }) {
  return <p className="loading">{what}…</p>;
}

/** A short label; `title` says what it means (shown on hover, read by screen readers). */
export function Badge({
  children,
  kind = "neutral",
  title,
}: {
  readonly children: ReactNode;
  readonly kind?: "neutral" | "good" | "warn";
  readonly title?: string;
}) {
  return (
    <span className={`badge badge-${kind}`} title={title}>
      {children}
    </span>
  );
}

/** What `user.selectedTeam` is, in the words the "selected" badge and its caption use. */
export const SELECTED_TEAM =
  "Selected: your current team, the one apps take as the team you are working in. The choice is saved with your account, so every device you sign in on sees the same one.";

/** The "selected" badge of the user's current team (`user.selectedTeam`), which says what that means. */
export function SelectedTeamBadge() {
  return (
    <Badge kind="good" title={SELECTED_TEAM}>
      selected
    </Badge>
  );
}

/** The name to show for a user: the display name, else the e-mail address; `fallback` when there is neither. */
export function nameOf(
  user: { readonly displayName: string | null; readonly primaryEmail: string | null },
  fallback = "(no name)",
): string {
  return user.displayName ?? user.primaryEmail ?? fallback;
}

export function formatDate(date: Date | undefined | null): string {
  if (!date) return "never";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
