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

export function Badge({ children, kind = "neutral" }: { readonly children: ReactNode; readonly kind?: "neutral" | "good" | "warn" }) {
  return <span className={`badge badge-${kind}`}>{children}</span>;
}

export function formatDate(date: Date | undefined | null): string {
  if (!date) return "never";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
