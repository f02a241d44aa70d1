/**
 * Several host processes on one store (PostgreSQL): exactly one is the active host, the others are standbys.
 *
 * Why one active host rather than every process serving from its own copy: the runtime keeps its working state in
 * memory (synchronous reads, writes through an ordered queue), and it assigns event sequences, journal numbers and
 * fixture bounds from that state. Two processes each acting on their own copy would hand out the same sequence
 * twice and miss each other's entries. So the store's lease (port.ts `LeaderLease`) decides which process holds the
 * state; that one loads it from the store, serves, and writes, fenced by its lease epoch; every other process
 * forwards each request to it (forward.ts) and waits to take over.
 *
 * Lifecycle of a member: `standby` (forwarding; contending for the lease) → `activating` (holds the lease, loading
 * the store: requests still wait in the forwarder) → `active` (serves, then publishes its URL) → `stopped` on close,
 * or `lost` if its lease is lost (the `onLost` option is told; `npm start` exits so a supervisor restarts it as a
 * standby, since its state can no longer be trusted). A process that dies with -9 frees its lease when the database
 * sees its session end; the first standby to take the lease becomes active.
 */
import type { FastifyInstance } from 'fastify';
import type { LeaderLease } from '../../storage/port.ts';
import { transition } from '../../shared/state-machine.ts';
import type { HostRuntime } from '../host-runtime.ts';
import { answerError, BufferBudget, forwardToActive, sharedLookup, STANDBY_HEADER } from './forward.ts';
import { CLUSTER_MEMBER_LIFECYCLE, type MemberRole } from './member-lifecycle.ts';

export type { MemberRole } from './member-lifecycle.ts';

export interface ClusterOptions {
  /** How long a forwarded request waits for an active host to take it (ms, default 15 000): a takeover loads the store. */
  readonly waitMs?: number;
  /** Told once if this host loses its lease after taking it (it must stop: `npm start` exits with status 1). */
  readonly onLost?: (err: Error) => void;
}

export interface ClusterMember {
  /** Contend for the lease in the background; `url` is where this host answers (published once it is active). */
  start(url: string): void;
  role(): MemberRole;
  /** Resolves once this host is the active host (rejects if it stopped or lost the lease first). */
  whenActive(): Promise<void>;
}

/** A HostRuntime that stands in until the real one is loaded: the routes hold it; the standby gate keeps them from it. */
export function standbyRuntime(): { readonly runtime: HostRuntime; readonly active: boolean; activate(target: HostRuntime): void } {
  let target: HostRuntime | undefined;
  const runtime = new Proxy({} as HostRuntime, {
    get(_, key) {
      if (target === undefined) throw new Error(`HostRuntime.${String(key)} used on a standby host (the standby gate forwards every request)`);
      const v: unknown = Reflect.get(target, key);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return {
    runtime,
    get active() {
      return target !== undefined;
    },
    activate(t) {
      target = t;
    },
  };
}

/**
 * The onRequest hook of a cluster member's app that comes right after authentication: while this host is not the
 * active one, an authenticated (or public) request is taken out of Fastify (hijacked: no parser, authorisation or
 * route runs here) and forwarded to the active host. A request without valid credentials is refused here (401)
 * before its body is read, as the active host would refuse it.
 */
export class StandbyGate {
  active = false;
  forward: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>) | undefined;

  install(app: FastifyInstance): void {
    app.addHook('onRequest', (req, reply, done) => {
      if (this.active) return done();
      reply.hijack();
      const forward = this.forward;
      if (forward === undefined) answerError(reply.raw, 503, 'runner_unavailable', 'this host is starting; retry', { [STANDBY_HEADER]: '1', 'retry-after': '1' });
      else {
        forward(req.raw, reply.raw).catch((err: unknown) => {
          req.log.error({ err }, 'forwarding to the active host failed');
          answerError(reply.raw, 503, 'runner_unavailable', 'the request could not be forwarded to the active host; retry', { 'retry-after': '1' });
        });
      }
      done();
    });
  }
}

export interface MemberParts {
  readonly app: FastifyInstance;
  readonly gate: StandbyGate;
  readonly lease: LeaderLease;
  readonly options: ClusterOptions;
  readonly bodyLimitBytes: number;
  /** Load the store and start serving; resolves with what stops the background work. */
  readonly activate: () => Promise<() => void>;
  /** The durability barrier of the loaded runtime (resolves at once before activation). */
  readonly flush: () => Promise<void>;
  readonly closeStore: () => Promise<void>;
}

export function clusterMember(p: MemberParts): ClusterMember {
  const log = p.app.log;
  let role: MemberRole = 'standby';
  /** The role now (read through a call: it changes across awaits, which TypeScript's narrowing does not see). */
  const now = (): MemberRole => role;
  const move = (to: MemberRole): void => {
    role = transition(CLUSTER_MEMBER_LIFECYCLE, role, to);
  };
  const stopping = new AbortController();
  let stopServing: (() => void) | undefined;
  let settle: { resolve: () => void; reject: (err: Error) => void } | undefined;
  const active = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  active.catch(() => undefined);

  const lose = (err: Error): void => {
    if (role !== 'active' && role !== 'activating') return;
    move('lost');
    // Nothing more is served from this process's state: requests are forwarded to whoever holds the lease now.
    p.gate.active = false;
    stopServing?.();
    log.error({ err }, 'lost the active-host lease: this host stops serving');
    // Give up whatever is still held (a failed activation holds a live lease), so another host can take over.
    void p.lease.release();
    settle?.reject(err);
    p.options.onLost?.(err);
  };
  p.lease.onLost(lose);

  p.app.addHook('onClose', async () => {
    const was = role;
    if (role !== 'stopped') move('stopped');
    stopping.abort(new Error('the host is closing'));
    p.gate.active = false;
    settle?.reject(new Error('the host closed before it became active'));
    stopServing?.();
    if (was === 'active') await p.flush().catch((err: unknown) => log.error({ err }, 'store write failed before close'));
    await p.lease.release();
    await p.closeStore();
  });

  return {
    start(url) {
      const active = sharedLookup(() => p.lease.active());
      const buffered = new BufferBudget();
      const forwardLog = (details: Record<string, unknown>, message: string) => log.warn(details, message);
      p.gate.forward = (req, res) => forwardToActive(req, res, { active, buffered, log: forwardLog, self: url, waitMs: p.options.waitMs ?? 15_000, bodyLimitBytes: p.bodyLimitBytes });
      void (async () => {
        try {
          const epoch = await p.lease.acquire(stopping.signal);
          if (now() !== 'standby') return;
          move('activating');
          log.info({ epoch }, 'took the active-host lease: loading the store');
          const stop = await p.activate();
          stopServing = stop;
          if (now() !== 'activating') return stop(); // closed or lost while loading
          move('active');
          p.gate.active = true;
          await p.lease.publish(url);
          log.info({ epoch, address: url }, 'this host is the active host');
          settle?.resolve();
        } catch (err) {
          if (stopping.signal.aborted) return;
          if (now() === 'standby') move('activating');
          lose(err as Error);
        }
      })();
    },
    role: () => role,
    whenActive: () => active,
  };
}
