// Projects: the client's view of the current project.
import type { Handlers } from "../engine/context.js";

export const projectHandlers: Handlers = {
  getCurrentProject: ({ project }) => ({
    body: {
      id: project.id,
      display_name: project.display_name,
      config: {
        sign_up_enabled: project.config.sign_up_enabled,
        credential_enabled: project.config.credential_enabled,
        magic_link_enabled: project.config.magic_link_enabled,
        passkey_enabled: project.config.passkey_enabled,
        client_team_creation_enabled: project.config.client_team_creation_enabled,
        client_user_deletion_enabled: project.config.client_user_deletion_enabled,
        allow_user_api_keys: project.config.allow_user_api_keys,
        allow_team_api_keys: project.config.allow_team_api_keys,
        enabled_oauth_providers: project.config.enabled_oauth_providers,
      },
    },
  }),
};
