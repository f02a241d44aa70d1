/**
 * One set of credentials per fleet (issue 23, docs/host.md "Several hosts"). Hosts on one PostgreSQL database must
 * accept the same API keys and hold the same secret and cursor keys: a host started with others would answer
 * differently from its neighbours behind one load balancer, and could not read what they sealed or signed.
 *
 * Each host computes a fingerprint of its credentials — a SHA-256 of the API keys' bindings (role, tenant, digest
 * of the key), of the secret key ring and of the cursor key, never a key itself — and the store keeps the
 * fingerprints the fleet accepts (`meta` `fleet.credentials`). The first host records its own; every later host
 * must present an accepted one or refuse to start. A rotation changes the fleet's credentials without a stop:
 *
 *   1. `begin` with the new credentials file: the fleet accepts both the old and the new fingerprint;
 *   2. restart the hosts one at a time with the new file (each serves as soon as it is up);
 *   3. `finish` with the new file: every live secret registry sealed with another key is sealed again with the new
 *      file's first key (the new file must still hold the keys they were sealed with), then only the new fingerprint
 *      is accepted; a host still running the old credentials sees it at its next look at the agenda and stops.
 *
 * A secret key is retired by two rotations: one to a file that lists the new key first and the old one second (the
 * finish reseals everything under the new key), then one to a file without the old key.
 */
import { createHash } from 'node:crypto';
import type { SecretKeyRing } from '../redaction/sealing.ts';
import { registryAad } from '../redaction/sealing.ts';
import { WopkitError } from '../shared/errors.ts';
import { unitOfWork, type StoragePort } from '../storage/index.ts';


import type { Credentials } from './auth.ts';

/** The meta key the accepted fingerprints are kept under. */
export const FLEET_META_KEY = 'fleet.credentials';

/** What the store keeps: the fingerprints the fleet accepts (two during a rotation), and since when. */
export interface FleetCredentials {
  readonly accepted: readonly string[];
  readonly changedAt: string;
}

/** Everything a host authenticates, seals and signs with. */
export interface HostCredentials {
  readonly credentials: Credentials;
  readonly secretKeys: SecretKeyRing;
  /** The cursor key ring (or one key): the first signs, every one verifies. */
  readonly cursorKey: Buffer | readonly Buffer[];
}

/** A host's credentials do not match its fleet's, or a rotation cannot go on; the message says what to do. */
export class FleetCredentialsError extends WopkitError<'fleet_credentials'> {
  constructor(message: string) {
    super('fleet_credentials', message);
  }
}

/** The fingerprint of a host's credentials (64 hex digits). */
export function fingerprint(c: HostCredentials): string {
  return createHash('sha256')
    .update('wopkit.fleet-credentials\u0000')
    .update(c.credentials.bindings().join('\n'))
    .update(`\u0000${c.secretKeys.fingerprint()}\u0000`)
    .update(Buffer.concat((Array.isArray(c.cursorKey) ? c.cursorKey : [c.cursorKey as Buffer]).map((k) => createHash('sha256').update(k).digest())))
    .digest('hex');
}

/** A fingerprint as messages show it. */
export const short = (fp: string): string => fp.slice(0, 12);

/** The fleet's accepted fingerprints, or undefined before any host recorded them. */
export async function fleetCredentials(port: StoragePort): Promise<FleetCredentials | undefined> {
  return parseFleet(await fleetText(port));
}

/** The fleet's record as the store holds it (its text). */
const fleetText = (port: StoragePort): Promise<string | undefined> => unitOfWork(port, (tx) => tx.read.metaValue(FLEET_META_KEY));

function parseFleet(text: string | undefined): FleetCredentials | undefined {
  if (text === undefined) return undefined;
  try {
    const doc = JSON.parse(text) as FleetCredentials;
    if (Array.isArray(doc.accepted) && doc.accepted.every((f) => typeof f === 'string')) return doc;
  } catch {
    // fall through: unreadable, as if tampered with
  }
  throw new FleetCredentialsError(`the store's record of the fleet's credentials (${FLEET_META_KEY}) is unreadable; remove it to let the next host record its own`);
}

const record = (accepted: readonly string[], at: number): string => JSON.stringify({ accepted: [...new Set(accepted)], changedAt: new Date(at).toISOString() } satisfies FleetCredentials);

async function setFleet(port: StoragePort, value: string, when: { absent: true } | { was: string }): Promise<boolean> {
  return (await unitOfWork(port, (tx) => tx.add('meta.set', { key: FLEET_META_KEY, value, when }))).value;
}

/** Check a starting host's credentials against the fleet's (the first host records its own); its fingerprint. */
export async function joinFleet(port: StoragePort, host: HostCredentials, nowMs: number): Promise<string> {
  const fp = fingerprint(host);
  await setFleet(port, record([fp], nowMs), { absent: true });
  const fleet = (await fleetCredentials(port))!;
  if (fleet.accepted.includes(fp)) return fp;
  throw new FleetCredentialsError(
    `this host's credentials (fingerprint ${short(fp)}) differ from those of the hosts on this database (${fleet.accepted.map(short).join(' or ')}): ` +
      'start it with the fleet\'s credentials file, or change the fleet\'s credentials with a rotation (npm run credentials -- begin --credentials <new file>; docs/host.md)',
  );
}

/** Whether a running host's fingerprint is still accepted (false once a rotation finished without it). */
export async function stillAccepted(port: StoragePort, fp: string): Promise<boolean> {
  const fleet = await fleetCredentials(port).catch(() => undefined);
  return fleet === undefined || fleet.accepted.includes(fp);
}

/** Rotation step 1: accept `next` beside the current fingerprint(s). Answers the accepted list. */
export async function beginRotation(port: StoragePort, next: string, nowMs: number): Promise<readonly string[]> {
  // One unit: read the record, write the next one over exactly it (re-run by the unit when another host changed it).
  const { done, accepted } = await unitOfWork(port, async (tx) => {
    const raw = await tx.read.metaValue(FLEET_META_KEY);
    const fleet = parseFleet(raw);
    if (fleet !== undefined && fleet.accepted.length > 1 && !fleet.accepted.includes(next)) {
      throw new FleetCredentialsError(`a rotation is already under way (accepted: ${fleet.accepted.map(short).join(', ')}); finish it first`);
    }
    const list = [...new Set([...(fleet?.accepted ?? []), next])];
    return { done: tx.add('meta.set', { key: FLEET_META_KEY, value: record(list, nowMs), when: raw === undefined ? { absent: true } : { was: raw } }), accepted: list };
  });
  // A first record another host wrote meanwhile: begin again over it.
  return done.value ? accepted : beginRotation(port, next, nowMs);
}

/** What finishing a rotation did. */
export interface RotationDone {
  /** Live registries sealed again with the new sealing key. */
  readonly resealed: number;
  readonly accepted: readonly string[];
}

/** Registries resealed per transaction. */
const RESEAL_BATCH = 200;

/**
 * Rotation step 3: seal every live registry again with `next`'s first secret key, then accept only `next`. Refused,
 * changing nothing, when the rotation was not begun with `next` or a registry is sealed with a key `next` lacks.
 */
export async function finishRotation(port: StoragePort, next: HostCredentials, nowMs: number): Promise<RotationDone> {
  const fp = fingerprint(next);
  const raw = await fleetText(port);
  const fleet = parseFleet(raw);
  if (raw === undefined || fleet === undefined || !fleet.accepted.includes(fp)) {
    throw new FleetCredentialsError(`these credentials (fingerprint ${short(fp)}) were not begun as a rotation (accepted: ${fleet?.accepted.map(short).join(', ') ?? 'none'}); run begin with this file first`);
  }
  const ring = next.secretKeys;
  let resealed = 0;
  for (;;) {
    const batch = await unitOfWork(port, (tx) => tx.read.registriesSealedWithOther({ keyId: ring.active.id, limit: RESEAL_BATCH }));
    if (batch.length === 0) break;
    const missing = [...new Set(batch.filter((r) => r.keyId === undefined || !ring.has(r.keyId)).map((r) => r.keyId ?? '?'))];
    if (missing.length > 0) {
      throw new FleetCredentialsError(`live secret registries are sealed with ${missing.map((k) => JSON.stringify(k)).join(', ')}, which the new credentials lack: list the old key after the new one in "secretKeys" for this rotation (it is resealed and can go in the next)`);
    }
    const moved = await unitOfWork(port, (tx) => batch.map((r) => {
      const text = ring.open(r.keyId!, r.sealed!, registryAad(r.runId, r.tenant));
      if (text === undefined) throw new FleetCredentialsError(`the secret registry of run ${r.runId} does not open with key ${JSON.stringify(r.keyId)}: the key in the new credentials is not the one it was sealed with`);
      const { keyId, sealed } = ring.seal(text, registryAad(r.runId, r.tenant));
      return tx.add('secrets.reseal', { runId: r.runId, tenant: r.tenant, expectRowVersion: r.rowVersion, keyId, sealed });
    }));
    // A registry that changed meanwhile was not moved: the next batch meets it again (its key id still differs).
    resealed += moved.filter((m) => m.value).length;
  }
  await setFleet(port, record([fp], nowMs), { was: (await fleetText(port))! });
  return { resealed, accepted: [fp] };
}
