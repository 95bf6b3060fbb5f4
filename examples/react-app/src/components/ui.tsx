// The few building blocks every page uses: a card, a labelled field, a button
// that shows it is busy, and messages.
import { Component, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode } from "react";

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

export function Button({
  busy,
  kind = "primary",
  children,
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { readonly busy?: boolean; readonly kind?: "primary" | "secondary" | "danger" | "link" }) {
  return (
    <button className={`button button-${kind}`} {...rest} disabled={busy || disabled} aria-busy={busy || undefined}>
      {busy ? "Please wait…" : children}
    </button>
  );
}

/** The message of whatever went wrong: known errors carry the service's own words. */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message !== "") return error.message;
  return "Something went wrong.";
}

export function ErrorNote({ error }: { readonly error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p className="note note-error" role="alert">
      {messageOf(error)}
    </p>
  );
}

export function Note({ children, kind = "info" }: { readonly children: ReactNode; readonly kind?: "info" | "success" }) {
  return (
    <p className={`note note-${kind}`} role="status">
      {children}
    </p>
  );
}

export function Loading({ what = "Loading" }: { readonly what?: string }) {
  return <p className="loading">{what}…</p>;
}

export function Badge({ children, kind = "neutral" }: { readonly children: ReactNode; readonly kind?: "neutral" | "good" | "warn" }) {
  return <span className={`badge badge-${kind}`}>{children}</span>;
}

/** Shows a failed page or section instead of a blank screen. */
export class ErrorBoundary extends Component<{ readonly children: ReactNode }, { readonly error: unknown }> {
  override state: { readonly error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error !== null) return <ErrorNote error={this.state.error} />;
    return this.props.children;
  }
}

export function formatDate(date: Date | undefined | null): string {
  if (!date) return "never";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
