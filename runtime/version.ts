/** This package's version, sent in `x-stack-client-version` as `js stackkit@<version>`. */
export const VERSION = "0.1.0";
/** What stackkit sends in `x-stack-client-version`: `js stackkit@<version>`. */
export const CLIENT_VERSION = `js stackkit@${VERSION}`;
