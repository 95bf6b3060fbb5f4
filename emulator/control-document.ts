// The control API's OpenAPI document (emulator/control-openapi.json), in a module of its
// own so that routes.ts loads it on first request: a bundle makes it a chunk of its own.
import controlDocument from "./control-openapi.json" with { type: "json" };

export default controlDocument;
