// The request log, live: the page asks for the lines after the last it has (`?since=`) every
// second, and shows method, path, operation, access type, status, known error and duration,
// filterable; one exchange opens with its headers and bodies, secrets masked by the emulator.
import { useEffect, useRef, useState } from "react";
import type { LoggedRequest } from "../../engine/request-log.js";
import { api } from "../api.js";
import { Badge, ErrorLine, Json, Section, time, useLoad } from "../components.js";

const POLL_MS = 1000;
/** Lines the page keeps; the emulator keeps more. */
const KEPT = 2000;

export function RequestsView() {
  const [lines, setLines] = useState<LoggedRequest[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [paused, setPaused] = useState(false);
  const [text, setText] = useState("");
  const [access, setAccess] = useState("");
  const [failedOnly, setFailedOnly] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const last = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (paused) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const fresh = await api.requests(last.current);
        if (!live) return;
        setError(null);
        if (fresh.length > 0) {
          last.current = fresh.at(-1)!.id;
          setLines((before) => [...before, ...fresh].slice(-KEPT));
        }
      } catch (failure) {
        if (live) setError(failure instanceof Error ? failure.message : String(failure));
      }
      if (live) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [paused]);

  const wanted = text.trim().toLowerCase();
  const shown = lines
    .filter(
      (line) =>
        (wanted === "" ||
          `${line.method} ${line.path} ${line.operationId ?? ""} ${line.knownError ?? ""}`.toLowerCase().includes(wanted)) &&
        (access === "" || line.accessType === access) &&
        (!failedOnly || line.status >= 400),
    )
    .reverse();

  return (
    <>
      <Section
        title="Requests"
        actions={
          <>
            <input
              type="search"
              placeholder="Filter: path, operation, error"
              aria-label="Filter requests"
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
            <select aria-label="Access type" value={access} onChange={(event) => setAccess(event.target.value)}>
              <option value="">any access</option>
              <option value="client">client</option>
              <option value="server">server</option>
              <option value="admin">admin</option>
            </select>
            <label>
              <input type="checkbox" checked={failedOnly} onChange={(event) => setFailedOnly(event.target.checked)} /> failed only
            </label>
            <button type="button" onClick={() => setPaused((value) => !value)}>
              {paused ? "Resume" : "Pause"}
            </button>
            <button
              type="button"
              onClick={() =>
                void api.clearRequests().then(() => {
                  setLines([]);
                  setOpen(null);
                })
              }
            >
              Clear log
            </button>
          </>
        }
      >
        <ErrorLine error={error} />
        <table className="list requests">
          <thead>
            <tr>
              <th>Time</th>
              <th>Method</th>
              <th>Path</th>
              <th>Operation</th>
              <th>Access</th>
              <th>Status</th>
              <th>Known error</th>
              <th>ms</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((line) => (
              <tr key={line.id} className={`clickable${open === line.id ? " selected" : ""}`} onClick={() => setOpen(line.id)}>
                <td>{time(line.at).slice(11)}</td>
                <td>{line.method}</td>
                <td className="path">{line.path}</td>
                <td>{line.operationId ?? <span className="muted">—</span>}</td>
                <td>{line.accessType ?? <span className="muted">—</span>}</td>
                <td>
                  <Badge tone={line.status >= 500 ? "bad" : line.status >= 400 ? "warn" : "ok"}>{line.status}</Badge>
                </td>
                <td>{line.knownError ?? ""}</td>
                <td>{line.durationMs}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {shown.length === 0 ? <p className="muted">No request yet: they appear here as an app sends them.</p> : null}
      </Section>
      {open !== null ? <ExchangeView id={open} /> : null}
    </>
  );
}

function ExchangeView({ id }: { id: number }) {
  const exchange = useLoad(() => api.exchange(id), [id]);
  const data = exchange.data;
  return (
    <Section title={data ? `${data.method} ${data.path} → ${data.status}` : `Request ${id}`}>
      <ErrorLine error={exchange.error} />
      {data ? (
        <div className="exchange">
          <div>
            <h3>Request</h3>
            <Json value={data.request.headers} />
            <Json value={data.request.body ?? "(no body)"} />
          </div>
          <div>
            <h3>Answer</h3>
            <Json value={data.response.headers} />
            <Json value={data.response.body ?? "(no body)"} />
          </div>
        </div>
      ) : null}
    </Section>
  );
}
