// The emulator's clock (now, advance), its faults (inject, list, clear), and its whole state
// (reset, export to a file, import from one).
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { ErrorLine, Section, time, useAction, useLoad } from "../components.js";

const MINUTE = 60_000;

export function ToolsView({ onStateChanged }: { onStateChanged: () => void }) {
  return (
    <>
      <Clock />
      <Faults />
      <State onStateChanged={onStateChanged} />
    </>
  );
}

function Clock() {
  const clock = useLoad(() => api.clock(), []);
  const action = useAction();
  const [minutes, setMinutes] = useState("11");
  const advance = (ms: number) => void action.run(() => api.advanceClock(ms)).then(clock.reload);
  return (
    <Section title="Clock">
      <p>
        Now: <strong data-testid="clock-now">{clock.data ? time(clock.data.now) : "…"}</strong> <span className="muted">(UTC)</span>{" "}
        <button type="button" className="small" onClick={clock.reload}>
          Read again
        </button>
      </p>
      <div className="inline-form">
        <input
          type="number"
          min="0"
          step="any"
          value={minutes}
          onChange={(event) => setMinutes(event.target.value)}
          aria-label="Minutes to advance"
        />
        <button type="button" disabled={action.busy} onClick={() => advance(Number(minutes) * MINUTE)}>
          Advance minutes
        </button>
        <button type="button" disabled={action.busy} onClick={() => advance(60 * MINUTE)}>
          +1 hour
        </button>
        <button type="button" disabled={action.busy} onClick={() => advance(24 * 60 * MINUTE)}>
          +1 day
        </button>
      </div>
      <ErrorLine error={action.error ?? clock.error} />
    </Section>
  );
}

const FAULT_FIELDS = { "known-error": "code", status: "status", latency: "ms", "rate-limit": "retryAfterSeconds", drop: null } as const;

function Faults() {
  const faults = useLoad(() => api.faults(), []);
  const action = useAction();
  const [kind, setKind] = useState<keyof typeof FAULT_FIELDS>("status");
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = FAULT_FIELDS[kind];
    const value = String(form.get("value") ?? "");
    const times = String(form.get("times") ?? "1");
    const fault = { kind, ...(field === null ? {} : { [field]: field === "code" ? value : Number(value) }) };
    void action
      .run(() =>
        api.injectFault({
          operationId: String(form.get("operationId") ?? "").trim(),
          fault,
          times: times === "always" ? "always" : Number(times),
        }),
      )
      .then(faults.reload);
  };
  return (
    <Section
      title="Faults"
      actions={
        <button type="button" onClick={() => void action.run(() => api.clearFaults()).then(faults.reload)}>
          Clear faults
        </button>
      }
    >
      <form className="inline-form" onSubmit={submit}>
        <input name="operationId" placeholder="operationId, e.g. signInWithPassword" aria-label="Operation" required size={30} />
        <select aria-label="Fault kind" value={kind} onChange={(event) => setKind(event.target.value as keyof typeof FAULT_FIELDS)}>
          {Object.keys(FAULT_FIELDS).map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
        {FAULT_FIELDS[kind] === null ? null : (
          <input name="value" placeholder={FAULT_FIELDS[kind] ?? ""} aria-label="Fault value" required />
        )}
        <select name="times" aria-label="Times" defaultValue="1">
          <option value="1">once</option>
          <option value="3">3 times</option>
          <option value="always">always</option>
        </select>
        <button type="submit" disabled={action.busy}>
          Inject fault
        </button>
      </form>
      <ErrorLine error={action.error ?? faults.error} />
      <ul className="faults">
        {faults.data?.map((rule, index) => (
          <li key={index}>
            <code>{rule.operationId}</code> {JSON.stringify(rule.fault)} ·{" "}
            {rule.remaining === "always" ? "always" : `${rule.remaining} more`}
          </li>
        ))}
      </ul>
      {faults.data?.length === 0 ? <p className="muted">No fault pending.</p> : null}
    </Section>
  );
}

function State({ onStateChanged }: { onStateChanged: () => void }) {
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  const exportState = () =>
    void action.run(async () => {
      const state = await api.exportState();
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([JSON.stringify(state, null, 2)], { type: "application/json" }));
      link.download = "stack-emulator-state.json";
      link.click();
      // The download has started from the URL by the time this runs.
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      setNote("Exported.");
    });
  const importState = (file: File) =>
    void action.run(async () => {
      await api.importState(JSON.parse(await file.text()));
      setNote(`Imported ${file.name}.`);
      onStateChanged();
    });
  return (
    <Section title="State">
      <div className="inline-form">
        <button
          type="button"
          className="danger"
          disabled={action.busy}
          onClick={() => {
            if (confirm("Reset the emulator to its default projects? Every user, session, code and e-mail goes."))
              void action
                .run(() => api.reset())
                .then(() => {
                  setNote("Reset.");
                  onStateChanged();
                });
          }}
        >
          Reset
        </button>
        <button type="button" disabled={action.busy} onClick={exportState}>
          Export state
        </button>
        <label className="button">
          Import state{" "}
          <input
            type="file"
            accept="application/json,.json"
            hidden
            aria-label="Import state"
            onChange={(event) => event.target.files?.[0] && importState(event.target.files[0])}
          />
        </label>
      </div>
      <ErrorLine error={action.error} />
      {note ? (
        <p className="muted" role="status">
          {note}
        </p>
      ) : null}
    </Section>
  );
}
