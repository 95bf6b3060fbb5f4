// Entry point: one StackClientApp for the whole app, given to the hooks by the provider.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { StackProvider } from "stackkit/react";
import { App } from "./App.js";
import { logError } from "./errors.js";
import { Router } from "./router.js";
import { stackApp } from "./stack.js";
import "./styles/base.css";
import "./styles/forms.css";
import "./styles/pages.css";

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root element");

// Errors a boundary shows (components/errors.tsx) go to the console through logError, as warnings when they are the
// network or the person's input, instead of React's default console.error for every one of them.
createRoot(root, { onCaughtError: (error) => logError(error) }).render(
  <StrictMode>
    <StackProvider app={stackApp}>
      <Router>
        <App />
      </Router>
    </StackProvider>
  </StrictMode>,
);
