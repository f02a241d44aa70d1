/**
 * `inquirium.assistant-config.v1` loading (schema rule config-monotone-safety): the document is validated, then
 * every safety-sensitive setting is checked for monotonicity — retention, trace level and egress along the
 * classification lattice (ClassKeyed), verification rigor and the escalation threshold along mode severity
 * (ModeKeyed). A violation rejects the configuration at load time unless the operator explicitly acknowledged
 * that setting (class-keyed-monotonic-safety-axes); acknowledged violations are returned so they can be shown.
 *
 * Missing settings take the shipped defaults below, which are themselves monotone (a test holds them to it).
 */
import { WopkitError } from '../shared/errors.ts';
import { assertDto } from './dto.ts';
import { checkClassKeyedMonotone, checkModeKeyedMonotone, type ClassKeyed, type ModeKeyed, type MonotonicityViolation } from './keyed.ts';
import {
  egressAxis,
  escalationAxis,
  retentionAxis,
  rigorAxis,
  traceLevelAxis,
  type Egress,
  type EscalationThreshold,
  type RetentionProfile,
  type TraceLevel,
  type VerificationRigor,
} from './safety-axes.ts';

export type SafetySetting = 'retention' | 'trace_level' | 'egress' | 'verification_rigor' | 'escalation_threshold';

/** The resolved-ready configuration: every setting present. */
export interface AssistantConfig {
  readonly retention: ClassKeyed<RetentionProfile>;
  readonly trace_level: ClassKeyed<TraceLevel>;
  readonly egress: ClassKeyed<Egress>;
  readonly verification_rigor: ModeKeyed<VerificationRigor>;
  readonly escalation_threshold: ModeKeyed<EscalationThreshold>;
}

/** Shipped defaults: short retention for personal data, metadata-only traces, no egress above public, rigor and escalation rising with severity. */
export const DEFAULT_ASSISTANT_CONFIG: AssistantConfig = {
  retention: { default: { max_age: 'P30D', on_expiry: 'excise' }, by_class: { public: { max_age: 'P365D' }, community: { max_age: 'P90D' }, personal: { max_age: 'P30D', on_expiry: 'excise' } } },
  trace_level: { default: 'metadata_only' },
  egress: { default: 'deny', by_class: { public: 'allow_accepting_remote', community: 'deny', personal: 'deny' } },
  verification_rigor: { default: 'strict', by_mode: { commons: 'standard', support: 'elevated', crisis: 'strict' } },
  escalation_threshold: {
    default: { escalate: ['operator-decision', 'sustained-degradation', 'boundary-risk', 'pre-egress-confirmation', 'crisis-candidate'] },
    by_mode: {
      commons: { escalate: ['operator-decision', 'sustained-degradation', 'pre-egress-confirmation', 'crisis-candidate'] },
      support: { escalate: ['operator-decision', 'sustained-degradation', 'boundary-risk', 'pre-egress-confirmation', 'crisis-candidate'] },
      crisis: { escalate: ['operator-decision', 'sustained-degradation', 'boundary-risk', 'pre-egress-confirmation', 'crisis-candidate'] },
    },
  },
};

/** A configuration that loosens a safety setting as restrictiveness rises, unacknowledged: refused at load time. */
export class AssistantConfigError extends WopkitError<'assistant-config-not-monotone'> {
  constructor(readonly violations: readonly MonotonicityViolation<unknown>[]) {
    super('assistant-config-not-monotone', `assistant config rejected: ${violations.map((v) => v.message).join('; ')}`);
  }
}

export interface LoadedAssistantConfig {
  readonly config: AssistantConfig;
  /** Violations the operator acknowledged (kept for display and trace; never silently dropped). */
  readonly acknowledged: readonly MonotonicityViolation<unknown>[];
}

/** Every monotonicity violation of a (complete) configuration, setting by setting. */
export function configViolations(c: AssistantConfig): MonotonicityViolation<unknown>[] {
  return [
    ...checkClassKeyedMonotone(c.retention, retentionAxis),
    ...checkClassKeyedMonotone(c.trace_level, traceLevelAxis),
    ...checkClassKeyedMonotone(c.egress, egressAxis),
    ...checkModeKeyedMonotone(c.verification_rigor, rigorAxis),
    ...checkModeKeyedMonotone(c.escalation_threshold, escalationAxis),
  ];
}

/**
 * A setting as the validated document gives it, or the shipped default when it is absent. The schema requires
 * `default` in a given setting; the generated type leaves it optional (an intersection with the open keyed base), so
 * the setting counts as given only with its `default` — the check the type needs, never a cast.
 */
function classKeyedOr<T>(given: { readonly default?: T; readonly by_class?: ClassKeyed<T>['by_class'] } | undefined, fallback: ClassKeyed<T>): ClassKeyed<T> {
  if (given?.default === undefined) return fallback;
  return given.by_class === undefined ? { default: given.default } : { default: given.default, by_class: given.by_class };
}
function modeKeyedOr<T>(given: { readonly default?: T; readonly by_mode?: ModeKeyed<T>['by_mode'] } | undefined, fallback: ModeKeyed<T>): ModeKeyed<T> {
  if (given?.default === undefined) return fallback;
  return given.by_mode === undefined ? { default: given.default } : { default: given.default, by_mode: given.by_mode };
}

/**
 * Validate and check an `inquirium.assistant-config.v1` document. Throws DtoValidationError for a malformed
 * document and AssistantConfigError for unacknowledged monotonicity violations.
 */
export function loadAssistantConfig(doc: unknown, options: { readonly acknowledge?: readonly SafetySetting[] } = {}): LoadedAssistantConfig {
  const d = assertDto('inquirium.assistant-config.v1', doc);
  const config: AssistantConfig = {
    retention: classKeyedOr(d.retention, DEFAULT_ASSISTANT_CONFIG.retention),
    trace_level: classKeyedOr(d.trace_level, DEFAULT_ASSISTANT_CONFIG.trace_level),
    egress: classKeyedOr(d.egress, DEFAULT_ASSISTANT_CONFIG.egress),
    verification_rigor: modeKeyedOr(d.verification_rigor, DEFAULT_ASSISTANT_CONFIG.verification_rigor),
    escalation_threshold: modeKeyedOr(d.escalation_threshold, DEFAULT_ASSISTANT_CONFIG.escalation_threshold),
  };
  const violations = configViolations(config);
  const ack: ReadonlySet<string> = new Set(options.acknowledge ?? []);
  const refused = violations.filter((v) => !ack.has(v.setting));
  if (refused.length > 0) throw new AssistantConfigError(refused);
  return { config, acknowledged: violations };
}
