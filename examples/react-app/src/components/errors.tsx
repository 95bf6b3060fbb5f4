// How errors look: a note inside a form or a section, and boundaries that turn
// a failed page or section into such a note (or, for a whole page, a card)
// instead of a blank screen. The words are describeError's (errors.ts); the
// error itself goes to the console for the developer.
//
// Where: on every form, the error note (and a Problem the page finds itself)
// sits right under the submit button, or under the row of an inline form or
// of a form's buttons. The button that was pressed does not move when the note
// appears, and the note shows where the eye already is.
import { Component, useEffect, type ReactNode } from "react";
import { logError, userFacing } from "../errors.js";
import { useRetryAll, useRetryEpoch, useShowsErrorCode } from "./Connection.js";

/**
 * What went wrong, in words for the person using the app; with `onRetry`, a
 * "Try again" button when trying again may help (the network, a busy service);
 * `children` follow the words (a link to what to do instead).
 */
export function ErrorNote({
  error,
  onRetry,
  children,
}: {
  readonly error: unknown;
  readonly onRetry?: (() => void) | undefined;
  readonly children?: ReactNode;
}) {
  const failed = error !== null && error !== undefined;
  const described = failed ? userFacing(error) : null;
  useEffect(() => {
    if (failed) logError(error);
  }, [error, failed]);
  useShowsErrorCode(described?.code ?? null);
  if (described === null) return null;
  return (
    <div className="note note-error" role="alert" data-error-code={described.code}>
      <strong className="note-title">{described.title}</strong> <span className="note-message">{described.message}</span>
      {children !== undefined && children !== null && children !== false && <> {children}</>}
      {described.retryable && onRetry && (
        <button type="button" className="button button-link button-inline" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A whole page that could not be shown: its own heading, the words, and "Try again" when it may help. */
function PageError({ error, onRetry }: { readonly error: unknown; readonly onRetry: () => void }) {
  const described = userFacing(error);
  useEffect(() => logError(error), [error]);
  useShowsErrorCode(described.code);
  return (
    <section className="card" role="alert" data-error-code={described.code}>
      <h2>{described.title}</h2>
      <p>{described.message}</p>
      {described.retryable && (
        <div className="actions">
          <button type="button" className="button button-primary" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
    </section>
  );
}

interface BoundaryProps {
  readonly children: ReactNode;
  /** "page": a card for the whole page; "section" (default): a note in place of the section. */
  readonly variant?: "page" | "section";
  /** Shown instead of any error (the header's project name falls back to the app's name). */
  readonly fallback?: ReactNode;
  readonly epoch: number;
  readonly onRetry: () => void;
}

class Boundary extends Component<BoundaryProps, { readonly error: unknown }> {
  override state: { readonly error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidUpdate(previous: BoundaryProps) {
    // Someone pressed "Try again" (here or in the connection banner): show the content again.
    if (previous.epoch !== this.props.epoch && this.state.error !== null) this.setState({ error: null });
  }
  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (this.props.fallback !== undefined) return this.props.fallback;
    if (this.props.variant === "page") return <PageError error={error} onRetry={this.props.onRetry} />;
    return <ErrorNote error={error} onRetry={this.props.onRetry} />;
  }
}

/** Shows a failed page or section as words and a way to try again, instead of a blank screen. */
export function ErrorBoundary(props: Omit<BoundaryProps, "epoch" | "onRetry">) {
  return <Boundary {...props} epoch={useRetryEpoch()} onRetry={useRetryAll()} />;
}
