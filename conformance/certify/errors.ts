/**
 * The one error `wopkit certify` raises on purpose: a code callers branch on and a message naming the file, flag or
 * member at fault (never a key's bytes). The CLI prints it as the project's error envelope (`{ok: false, error}`).
 */
export type CertifyErrorCode =
  | 'usage'
  | 'key_file_unwritable'
  | 'key_file_unreadable'
  | 'key_file_invalid'
  | 'signing_key_invalid'
  | 'discovery_unavailable'
  | 'bundle_unreadable'
  | 'build_unknown'
  | 'evidence_tier_refused'
  | 'major_unsupported';

export class CertifyError extends Error {
  readonly code: CertifyErrorCode;
  constructor(code: CertifyErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = 'CertifyError';
  }
}
