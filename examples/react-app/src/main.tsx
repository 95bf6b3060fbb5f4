// Entry point: one StackClientApp for the whole app, given to the hooks by the provider.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { StackProvider } from "stackkit/react";
import { App } from "./App.js";
import { Router } from "./router.js";
import { stackApp } from "./stack.js";
import "./styles/base.css";
import "./styles/forms.css";
import "./styles/pages.css";

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <StackProvider app={stackApp}>
      <Router>
        <App />
      </Router>
    </StackProvider>
  </StrictMode>,
);
