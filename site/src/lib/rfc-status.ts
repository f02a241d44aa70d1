/** RFC statuses, in lifecycle order, and the badge variant each one renders with. */
export const RFC_STATUSES = ['Draft', 'Active', 'Accepted', 'Withdrawn', 'Superseded', 'Rejected'] as const;
export type RfcStatus = (typeof RFC_STATUSES)[number];

/** Starlight Badge variants: note (blue), tip (purple), success (green), caution (orange), danger (red), default. */
export const STATUS_VARIANT: Record<RfcStatus, 'note' | 'tip' | 'success' | 'caution' | 'danger' | 'default'> = {
  Draft: 'caution',
  Active: 'note',
  Accepted: 'success',
  Withdrawn: 'default',
  Superseded: 'tip',
  Rejected: 'danger',
};

/** URL slug of an RFC number: `0068` → `0068`, `P066` → `p066`. */
export const rfcSlug = (n: string): string => n.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');

export const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
