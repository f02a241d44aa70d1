/**
 * The schema each seam response is checked against, by the name the scenarios use. Every one is a generated
 * validator of schemas/openwop/v1 (the host-sample-* seams, run-events-response, the error details), so the suite
 * holds any host to the same published shapes the reference host is built from.
 */
import {
  validateHostSampleCrossRunTtlResponse, validateHostSampleDistillScheduleResponse, validateHostSampleDistillScheduleTickResponse, validateHostSampleEscalationRunResponse, validateHostSampleInquiriumTracesResponse,
  validateHostSampleMemoryCompactResponse, validateHostSampleMemoryEntriesResponse, validateHostSampleMemoryRedactionResponse,
  validateHostSampleMemorySeedResponse, validateHostSampleReplayFixtureResponse, validateReplayMemorySnapshotUnavailableDetails,
  validateRunEventsResponse,
} from '../generated/validators/validators.js';
import type { SchemaValidator } from './client.ts';

export const EntriesResponse: SchemaValidator = validateHostSampleMemoryEntriesResponse;
export const RunEventsResponse: SchemaValidator = validateRunEventsResponse;
export const SeedResponse: SchemaValidator = validateHostSampleMemorySeedResponse;
export const RedactionFixtureResponse: SchemaValidator = validateHostSampleMemoryRedactionResponse;
export const CompactResponse: SchemaValidator = validateHostSampleMemoryCompactResponse;
export const EscalationRunResponse: SchemaValidator = validateHostSampleEscalationRunResponse;
export const CrossRunTtlResponse: SchemaValidator = validateHostSampleCrossRunTtlResponse;
export const ReplayFixtureResponse: SchemaValidator = validateHostSampleReplayFixtureResponse;
export const DistillScheduleResponse: SchemaValidator = validateHostSampleDistillScheduleResponse;
export const DistillScheduleTickResponse: SchemaValidator = validateHostSampleDistillScheduleTickResponse;
export const TracesResponse: SchemaValidator = validateHostSampleInquiriumTracesResponse;
/** The 422 refusal of a fork: the envelope is checked by the client; this pins its details. */
export const replayDetails: SchemaValidator = validateReplayMemorySnapshotUnavailableDetails;
