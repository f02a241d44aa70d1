/**
 * The lifecycle of a host process sharing a store with others (standby.ts moves through it; the site draws it).
 * Kept apart from standby.ts so the site's build loads the table without the host's HTTP modules.
 */
import { defineStateMachine } from '../../shared/state-machine.ts';

export type MemberRole = 'standby' | 'activating' | 'active' | 'lost' | 'stopped';

/** The lifecycle of a host process in a cluster (drawn on the site's diagrams page). */
export const CLUSTER_MEMBER_LIFECYCLE = defineStateMachine<MemberRole>({
  id: 'cluster-member-lifecycle',
  title: 'A host process sharing a store with others',
  source: 'wopkit reference host (docs/storage.md, "Several host processes on one database")',
  states: ['standby', 'activating', 'active', 'lost', 'stopped'],
  initial: 'standby',
  terminal: ['stopped'],
  transitions: [
    { from: 'standby', to: 'activating', on: 'took the store lease' },
    { from: 'standby', to: 'stopped', on: 'closed' },
    { from: 'activating', to: 'active', on: 'store loaded; address published' },
    { from: 'activating', to: 'lost', on: 'lease lost or loading failed' },
    { from: 'activating', to: 'stopped', on: 'closed' },
    { from: 'active', to: 'lost', on: 'lease session failed' },
    { from: 'active', to: 'stopped', on: 'closed' },
    { from: 'lost', to: 'stopped', on: 'closed' },
  ],
});

