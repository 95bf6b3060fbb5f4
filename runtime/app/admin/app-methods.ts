// What StackAdminApp does, gathered for one load on the admin app's first call:
// each is a function of the admin app's server context (admin access, no user tokens).
export { getMetrics, getSvixToken } from "./dashboard-data.js";
export { listEmailTemplates, listSentEmails, resetEmailTemplate, sendTestEmail, updateEmailTemplate } from "./email.js";
export { createInternalApiKey, listInternalApiKeys } from "./internal-api-keys.js";
export { permissionDefinitions } from "./permission-definitions.js";
export { adminProjectFromWire, getAdminProject } from "./project.js";
