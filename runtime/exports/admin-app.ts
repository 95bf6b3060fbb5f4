// One group of the package entry's named exports: the admin app. Apart from the
// client app's group, so that a bundler follows it only for an app that imports it.
export { StackAdminApp } from "../app/admin-app.js";
