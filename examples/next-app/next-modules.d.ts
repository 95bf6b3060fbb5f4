// For the stackkit repository's type check only. It resolves modules as Node
// does (NodeNext), and `next` has no "exports" map, so there `next/server`
// must be written `next/server.js`. These declarations give the usual names
// the same contents. Copied out, Next's own settings (`moduleResolution:
// "bundler"`) find the modules either way, and this file can be deleted.
declare module "next/headers" {
  export * from "next/headers.js";
}
declare module "next/navigation" {
  export * from "next/navigation.js";
}
declare module "next/server" {
  export * from "next/server.js";
}
