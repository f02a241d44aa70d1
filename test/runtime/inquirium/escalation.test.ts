import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crisisCandidate, DEFAULT_ESCALATION_THRESHOLD, ESCALATION_REASONS, escalationFor, raise, EscalationError } from '../../../runtime/inquirium/escalation-policy.ts';
import { checkModeKeyedMonotone } from '../../../runtime/inquirium/keyed.ts';
import { escalationAxis } from '../../../runtime/inquirium/safety-axes.ts';
import { OperatorQuestions } from '../../../runtime/inquirium/operator-questions.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { MODES } from '../../../runtime/inquirium/lattice.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { question } from './questions.ts';
import { inquirium } from './helpers.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import { unitOfWork, unitsOf } from '../../../runtime/storage/index.ts';

const item = (reason?: string) => ({ ...(reason ? { reason } : {}), code: 'baseline-unavailable', subject: 'runtime/builtin-local', correlation: 'operation/inquirium/op-1', text: 'The local assistant is unavailable.' });

describe('escalation policy', () => {
  it('the shipped threshold is monotone in severity', () => {
    expect(checkModeKeyedMonotone(DEFAULT_ESCALATION_THRESHOLD, escalationAxis)).toEqual([]);
  });
  it('feed-only by default: routine items never leave the feed in any mode (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(undefined), fc.string().filter((s) => !(ESCALATION_REASONS as readonly string[]).includes(s))), fc.constantFrom(...MODES, 'unknown-mode'), (reason, mode) => {
        expect(escalationFor(reason === undefined ? {} : { reason }, mode).level).toBe('feed');
      }),
    );
  });
  it('boundary-risk stays in the feed in commons and becomes a notification in support and crisis; decisions become prompts', () => {
    expect(escalationFor({ reason: 'boundary-risk' }, 'commons').level).toBe('feed');
    expect(escalationFor({ reason: 'boundary-risk' }, 'support').level).toBe('notification');
    expect(escalationFor({ reason: 'boundary-risk' }, 'crisis').level).toBe('notification');
    expect(escalationFor({ reason: 'operator-decision' }, 'commons').level).toBe('operator-prompt');
    expect(escalationFor({ reason: 'pre-egress-confirmation' }, 'commons').level).toBe('operator-prompt');
    expect(escalationFor({ reason: 'sustained-degradation' }, 'commons').level).toBe('notification');
    expect(escalationFor({ reason: 'crisis-candidate' }, 'commons').level).toBe('notification');
    expect(escalationFor({ reason: 'boundary-risk' }, 'commons').resolution).toMatchObject({ axis: 'mode', chosenKey: 'commons', reason: 'configured' });
  });
  it('raise emits nothing for the feed, a content-free notice for a notification, and a validated question plus its notification-create.v1 projection for a prompt', async () => {
    expect((await raise(item(), 'commons')).level).toBe('feed');
    const n = await raise(item('sustained-degradation'), 'commons');
    expect(n.level).toBe('notification');
    if (n.level === 'notification') expect(n.notice).toEqual({ 'subject/ref': 'runtime/builtin-local', 'correlation/id': 'operation/inquirium/op-1', 'body/text': 'The local assistant is unavailable.', 'reason/code': 'baseline-unavailable', 'escalation/reason': 'sustained-degradation' });
    const port = await openMemoryStore();
    const questions = new OperatorQuestions(unitsOf(port), new ManualClock(), { displayCeiling: 'community' });
    await expect(unitOfWork(port, (tx) => raise(item('operator-decision'), 'commons', { questions, tx }))).rejects.toThrow(EscalationError);
    await expect(raise(item('operator-decision'), 'commons', { questions, proposedQuestion: question() })).rejects.toThrow(EscalationError);
    const p = await unitOfWork(port, (tx) => raise(item('operator-decision'), 'commons', { questions, tx, proposedQuestion: question() }));
    expect(p.level).toBe('operator-prompt');
    if (p.level === 'operator-prompt') {
      expect(checkDto('notification-create.v1', p.notification)).toEqual([]);
      expect((await unitOfWork(port, (tx) => questions.state(tx, question()['question/ref']))).state).toBe('pending');
    }
    // an invalid proposed question never produces a notification
    const freshPort = await openMemoryStore();
    const fresh = new OperatorQuestions(unitsOf(freshPort), new ManualClock(), { displayCeiling: 'community' });
    await expect(unitOfWork(freshPort, (tx) => raise(item('operator-decision'), 'commons', { questions: fresh, tx, proposedQuestion: question({ 'widget/kind': 'password' }) }))).rejects.toThrow();
    await expect(unitOfWork(freshPort, (tx) => fresh.state(tx, question({ 'widget/kind': 'password' })['question/ref']))).rejects.toThrow(); // nothing opened
  });
  it('a crisis candidate is a request for host review, never a declaration: it notifies and leaves the node mode alone', async () => {
    const port = await openMemoryStore();
    const rt = await inquirium({ port });
    const item = crisisCandidate({ subject: 'trace/tr:1', correlation: 'operation/inquirium/op-9' });
    const raised = await unitOfWork(port, (tx) => rt.escalate(tx, item));
    expect(raised.level).toBe('notification');
    if (raised.level === 'notification') expect(raised.notice).toMatchObject({ 'reason/code': 'crisis-candidate-needs-host-review', 'escalation/reason': 'crisis-candidate' });
    expect(item.text).not.toMatch(/crisis is active|declared a crisis/i);
    expect((await unitOfWork(port, (tx) => rt.escalate(tx, item))).decision.resolution.normalised).toBe('commons'); // still commons: Inquirium did not switch modes
  });
});
