// Type test, checked by `make typecheck`: the README's React snippet compiles as written.
import { StackClientApp } from "../../runtime/index.js"; // in an app: from "stackkit"
import { StackProvider, useUser } from "../../react/index.js"; // in an app: from "stackkit/react"

declare const app: StackClientApp;

function Greeting() {
  const user = useUser({ or: "redirect" });
  return <p>Hello, {user.displayName}</p>;
}

export const App = () => (
  <StackProvider app={app}>
    <Greeting />
  </StackProvider>
);
