// The emulator's page: a React app at /emulator/ui/ that looks at and changes the emulator through
// its control API only (api.ts). One module per view under views/; the place is in the fragment
// (router.ts). The emulator serves it with a Content-Security-Policy that allows nothing but its own
// origin: no inline script, no request to another host.
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { api } from "./api.js";
import { useLoad } from "./components.js";
import { href, useRoute } from "./router.js";
import { EmailsView } from "./views/emails.js";
import { ProjectView } from "./views/project.js";
import { RequestsView } from "./views/requests.js";
import { TeamsView } from "./views/teams.js";
import { ToolsView } from "./views/tools.js";
import { UserView } from "./views/user.js";
import { UsersView } from "./views/users.js";

const VIEWS = [
  ["users", "Users"],
  ["teams", "Teams"],
  ["emails", "E-mails"],
  ["requests", "Requests"],
  ["tools", "Clock, faults & state"],
  ["project", "Project & keys"],
] as const;

const PROJECT_KEY = "stackkit-emulator-page:project";

function App() {
  const route = useRoute();
  const projects = useLoad(() => api.projects(), []);
  const [projectId, setProjectId] = useState<string | null>(() => localStorage.getItem(PROJECT_KEY));
  const list = projects.data?.projects ?? [];
  // The demo project (the last one seeded) unless one was picked; a project gone after a reset gives way too.
  const current = list.find((project) => project.id === projectId) ?? list.at(-1);
  useEffect(() => {
    if (current) localStorage.setItem(PROJECT_KEY, current.id);
  }, [current]);
  const [view = "users", ...rest] = route.parts;
  const serviceVersion = projects.data?.serviceVersion;

  return (
    <div className="shell">
      <header className="top">
        <h1>
          stackkit emulator <span className="muted">· service {serviceVersion ?? "…"}</span>
        </h1>
        <label className="project-picker">
          Project{" "}
          <select value={current?.id ?? ""} onChange={(event) => setProjectId(event.target.value)} aria-label="Project">
            {list.map((project) => (
              <option key={project.id} value={project.id}>
                {project.displayName} ({project.id.slice(0, 8)})
              </option>
            ))}
          </select>
        </label>
      </header>
      <nav className="tabs" aria-label="Views">
        {VIEWS.map(([name, label]) => (
          <a key={name} href={href(name)} aria-current={view === name || (view === "user" && name === "users") ? "page" : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <main>
        {projects.error ? <p className="error">{projects.error}</p> : null}
        {current && serviceVersion ? (
          <Routed
            view={view}
            rest={rest}
            params={route.params}
            projectId={current.id}
            serviceVersion={serviceVersion}
            project={current}
            onStateChanged={projects.reload}
          />
        ) : (
          <p className="muted">{projects.data && list.length === 0 ? "The emulator has no project (it was reset empty)." : "Loading…"}</p>
        )}
      </main>
    </div>
  );
}

function Routed(p: {
  view: string;
  rest: readonly string[];
  params: URLSearchParams;
  projectId: string;
  serviceVersion: string;
  project: Parameters<typeof ProjectView>[0]["project"];
  onStateChanged: () => void;
}) {
  switch (p.view) {
    case "users":
      return <UsersView projectId={p.projectId} />;
    case "user":
      return <UserView key={p.rest[0]} userId={p.rest[0] ?? ""} serviceVersion={p.serviceVersion} />;
    case "teams":
      return <TeamsView projectId={p.projectId} teamId={p.rest[0]} />;
    case "emails":
      return <EmailsView projectId={p.projectId} to={p.params.get("to")} />;
    case "requests":
      return <RequestsView />;
    case "tools":
      return <ToolsView onStateChanged={p.onStateChanged} />;
    case "project":
      return <ProjectView project={p.project} serviceVersion={p.serviceVersion} />;
    default:
      return <p className="error">No view {p.view}.</p>;
  }
}

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
