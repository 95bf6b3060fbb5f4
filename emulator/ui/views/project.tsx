// The project: the service version the emulator plays, and its keys, each to copy.
import type { ProjectSummary } from "../../control-inspect-types.js";
import { Copyable, Section } from "../components.js";

export function ProjectView({ project, serviceVersion }: { project: ProjectSummary; serviceVersion: string }) {
  return (
    <Section title={`Project ${project.displayName}`}>
      <dl className="facts">
        <dt>Service version</dt>
        <dd data-testid="service-version">{serviceVersion}</dd>
        <dt>Project id</dt>
        <dd>
          <Copyable value={project.id} />
        </dd>
        <dt>API base URL</dt>
        <dd>
          <Copyable value={location.origin} />
        </dd>
      </dl>
      <h3>Keys</h3>
      {project.keys.length === 0 ? <p className="muted">No key set is valid.</p> : null}
      {project.keys.map((keys, index) => (
        <dl className="facts" key={index}>
          {(
            [
              ["Publishable client key", keys.publishableClientKey],
              ["Secret server key", keys.secretServerKey],
              ["Super secret admin key", keys.superSecretAdminKey],
            ] as const
          ).map(([name, value]) => (
            <div key={name} className="fact">
              <dt>{name}</dt>
              <dd>{value === null ? <span className="muted">none</span> : <Copyable value={value} />}</dd>
            </div>
          ))}
        </dl>
      ))}
    </Section>
  );
}
