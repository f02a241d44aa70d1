/** The package's version, as the runtime and host advertise it (test/package/versions.test.ts ties it to package.json). */
export const WOPKIT_VERSION = '0.3.0';
