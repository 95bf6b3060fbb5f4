/** This package's version, sent in `x-stack-client-version` as `js stackkit@<version>`. */
export const VERSION = "0.1.0";
export const CLIENT_VERSION = `js stackkit@${VERSION}`;
