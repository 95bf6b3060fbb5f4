/** The app's name, in every tab title and in the header until the project's name is known. */
export const APP_NAME = "stackkit example";
