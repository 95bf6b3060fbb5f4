// Two buttons with a second step: one that asks before it does something that
// cannot be undone (no browser dialog: the question appears in place, with the
// button that does it and one that cancels), and one that copies a text.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Button, type ButtonKind } from "./ui.js";

export function ConfirmButton({
  children,
  question,
  confirm,
  onConfirm,
  busy = false,
  disabled,
  kind = "danger",
}: {
  /** The first button's label. */
  readonly children: ReactNode;
  /** What is about to happen, as a question ("Revoke this key? Apps using it stop working."). */
  readonly question: string;
  /** The label of the button that does it ("Revoke key"). */
  readonly confirm: string;
  readonly onConfirm: () => void;
  /** The action is in flight: the confirming button shows it. */
  readonly busy?: boolean;
  readonly disabled?: boolean;
  readonly kind?: ButtonKind;
}) {
  const [asking, setAsking] = useState(false);
  const started = useRef(false);
  // Once the action has run (busy went on, then off again), the question closes.
  useEffect(() => {
    if (busy) started.current = true;
    else if (started.current) {
      started.current = false;
      setAsking(false);
    }
  }, [busy]);
  if (!asking) {
    return (
      <Button kind={kind} disabled={disabled} onClick={() => setAsking(true)}>
        {children}
      </Button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question} onKeyDown={(event) => event.key === "Escape" && setAsking(false)}>
      <span className="confirm-question">{question}</span>
      <Button kind="danger" busy={busy} autoFocus onClick={onConfirm}>
        {confirm}
      </Button>
      <Button kind="secondary" disabled={busy} onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </span>
  );
}

/** Copies `text` to the clipboard; says so for two seconds, or how to copy by hand when the browser refuses. */
export function CopyButton({ text, label = "Copy" }: { readonly text: string; readonly label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <Button type="button" kind="secondary" className="button-small" onClick={() => void copy()}>
        <span aria-live="polite">{state === "copied" ? "Copied" : label}</span>
      </Button>
      {state === "failed" && <span className="muted small">Select the text and copy it yourself.</span>}
    </>
  );
}
