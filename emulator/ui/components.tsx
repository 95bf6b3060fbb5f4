// What the views share: an error line, a copy button, a JSON block, times, and a hook that
// loads what a view shows and loads it again when asked.
import { useCallback, useEffect, useState, type Dispatch, type ReactNode, type SetStateAction } from "react";

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
      },
      (failure: unknown) => live && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      live = false;
    };
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, reload };
}

/** Runs an action, saying what went wrong; `busy` while it runs. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}

export function ErrorLine({ error }: { error: string | null | undefined }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="small"
      onClick={() => {
        void navigator.clipboard.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? "Copied" : label}
    </button>
  );
}

/** A secret or long value, shortened, with a copy button. */
export function Copyable({ value, title }: { value: string; title?: string }) {
  return (
    <span className="copyable">
      {title ? <span className="muted">{title} </span> : null}
      <code title={value}>{value.length > 48 ? `${value.slice(0, 22)}…${value.slice(-22)}` : value}</code>{" "}
      <CopyButton value={value} label={title ? `Copy ${title.toLowerCase()}` : "Copy"} />
    </span>
  );
}

export function Json({ value }: { value: unknown }) {
  return <pre className="json">{typeof value === "string" ? value : JSON.stringify(value, null, 2)}</pre>;
}

export const time = (millis: number | null | undefined) =>
  millis === null || millis === undefined ? "—" : new Date(millis).toISOString().replace("T", " ").slice(0, 19);

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <header className="card-head">
        <h2>{title}</h2>
        {actions ? <div className="actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function Badge({ tone, children }: { tone: "ok" | "warn" | "bad" | "muted"; children: ReactNode }) {
  return <span className={`badge ${tone}`}>{children}</span>;
}

/**
 * The Previous and Next buttons of a list read a page at a time. `cursors` holds the cursor of
 * every page up to the one shown (undefined for the first), so that Previous goes back.
 */
export function PagerButtons({
  cursors,
  setCursors,
  nextCursor,
}: {
  cursors: readonly (string | undefined)[];
  setCursors: Dispatch<SetStateAction<(string | undefined)[]>>;
  nextCursor: string | null | undefined;
}) {
  return (
    <>
      <button type="button" disabled={cursors.length < 2} onClick={() => setCursors((all) => all.slice(0, -1))}>
        Previous
      </button>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && setCursors((all) => [...all, nextCursor])}>
        Next
      </button>
    </>
  );
}
