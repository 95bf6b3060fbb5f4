#!/usr/bin/env node
// @ts-check
// `make emulator`: the `stackkit-emulator` bin run from source (emulator/bin.ts,
// bundled on the fly by esbuild: no build step, no TypeScript loader needed).
// Takes the bin's options: node scripts/emulator.mjs [--port 8102] [--host 127.0.0.1] [--data file.jsonl] [--state empty]

import { pathToFileURL } from "node:url";
import { bundleEmulator } from "./lib/emulator-source.mjs";

// The bin reads process.argv itself and runs until stopped.
await import(pathToFileURL(await bundleEmulator("bin")).href);
