/**
 * The keys every test host of one database shares (a fleet, runtime/host/fleet-credentials.ts): the secret key ring
 * SR-1 registries are sealed with and the cursor key. Fixed values, so hosts a test starts at different times are
 * one fleet; spread into `createHost` options.
 */
import { SecretKeyRing } from '../../runtime/redaction/sealing.ts';

export const TEST_FLEET_KEYS = {
  secretKeys: new SecretKeyRing([{ id: 'test', key: Buffer.alloc(32, 0x5a) }]),
  cursorKey: Buffer.alloc(32, 0xc5),
} as const;
