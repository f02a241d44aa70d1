/**
 * `wopkit/runtime` — the reference runtime as a library: the wired OpenWOP runtime (`createOpenwopRuntime`) and
 * Inquirium runtime (`createInquiriumRuntime`), and the modules they are built from — memory adapter and store,
 * SR-1 redaction, compaction, distillation, consolidation, commitments, multi-agent, RFC 0096 proposals, the RFC 0080
 * §C degraded-memory projection, the run-event log, clocks and id sources.
 */
export * from '../runtime/openwop/index.ts';
export * from '../runtime/inquirium/index.ts';
export * from '../runtime/shared/clock.ts';
export * from '../runtime/shared/duration.ts';
export * from '../runtime/shared/quota.ts';
export * from '../runtime/capabilities/registry.ts';
export * from '../runtime/memory/adapter.ts';
export * from '../runtime/memory/stored-entry.ts';
export * from '../runtime/memory/tenant-reader.ts';
export * from '../runtime/memory/cursor.ts';
export * from '../runtime/memory/memory-ref.ts';
export * from '../runtime/storage/index.ts';
export * from '../runtime/redaction/sealing.ts';
export * from '../runtime/memory/writer.ts';
export * from '../runtime/memory/degraded.ts';
export * from '../runtime/redaction/chokepoint.ts';
export * from '../runtime/redaction/secret-registry.ts';
export * from '../runtime/compaction/compactor.ts';
export * from '../runtime/compaction/summariser.ts';
export * from '../runtime/distillation/distiller.ts';
export * from '../runtime/distillation/index-manifest.ts';
export * from '../runtime/distillation/schedule.ts';
export * from '../runtime/consolidation/near-duplicates.ts';
export * from '../runtime/consolidation/plan.ts';
export * from '../runtime/consolidation/service.ts';
export * from '../runtime/commitments/engine.ts';
export * from '../runtime/commitments/inference.ts';
export * from '../runtime/multi-agent/escalation.ts';
export * from '../runtime/multi-agent/replay-snapshots.ts';
export * from '../runtime/multi-agent/sub-run-memory.ts';
export * from '../runtime/proposals/lifecycle.ts';
export * from '../runtime/proposals/service.ts';
export * from '../runtime/proposals/store.ts';
export * from '../runtime/proposals/errors.ts';
export * from '../runtime/openwop/agent-inventory.ts';
export * from '../runtime/events/log.ts';
export * from '../runtime/events/validate.ts';
// Both sides name a type EscalationDecision: the multi-agent one (supervisor confidence floor) keeps the plain name,
// Inquirium's (feed → notification → operator prompt) is re-exported under its own.
export type { EscalationDecision } from '../runtime/multi-agent/escalation.ts';
export type { EscalationDecision as InquiriumEscalationDecision } from '../runtime/inquirium/escalation-policy.ts';
