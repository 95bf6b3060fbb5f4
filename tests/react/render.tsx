// Rendering under <StackProvider> with a Suspense fallback and an error boundary.
import { render } from "@testing-library/react";
import type { QueryClient } from "@tanstack/react-query";
import { Component, Suspense, type ReactNode } from "react";
import { StackProvider } from "../../react/index.js";
import type { StackClientApp } from "../../runtime/app/client-app.js";

export class Boundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    const e = error as { name?: string; message?: string };
    return <p role="alert">{`${e.name}: ${e.message}`}</p>;
  }
}

/**
 * Renders `ui` under <StackProvider> with a Suspense fallback ("loading") and
 * an error boundary (role "alert" shows `name: message`). `caught` collects the
 * errors the boundary caught (React reports them instead of logging).
 */
export function renderWithStack(ui: ReactNode, options: { app: StackClientApp; queryClient?: QueryClient }) {
  const caught: unknown[] = [];
  const provider = { app: options.app, ...(options.queryClient ? { queryClient: options.queryClient } : {}) };
  const view = render(
    <StackProvider {...provider}>
      <Boundary>
        <Suspense fallback={<p>loading</p>}>{ui}</Suspense>
      </Boundary>
    </StackProvider>,
    { onCaughtError: (error) => void caught.push(error) },
  );
  return { ...view, caught };
}

/**
 * Its own Suspense boundary, so that a suspending reader does not hold back the
 * non-suspending ones beside it (React commits a suspended boundary's content
 * only after its fallback has shown for 300 ms, by which time their data would be stale).
 */
export function Suspended({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p>inner loading</p>}>{children}</Suspense>;
}
