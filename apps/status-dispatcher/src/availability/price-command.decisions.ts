import type { BudgetedCall, PriceCallOutcome } from '@courier/platforms';
import { AttemptFacts, decideAfterAnswer, RECHECK_MS, RetryPolicy } from '../status-updates/status-dispatch.decisions';
import type { CommandAnswer, CommandKind, CommandState } from './availability.model';

/**
 * What a price command's platform answer leads to (pure): the availability commands' rule
 * (decideAfterAnswer) for done, failed, skipped and retry, plus `pending` for a platform that works
 * on the request asynchronously: the command is checked again later, until the age limit.
 */
export type PriceAnswerDecision =
  | { kind: 'end'; state: 'sent' | 'failed'; answer: CommandAnswer; error: string | null }
  /** Sent, not finished: check at `at` (`followUp`: the new one, when the answer gave one). */
  | { kind: 'check'; at: Date; followUp?: Record<string, string | number>; answer: CommandAnswer }
  /** Not sent: another attempt at `at` (superseded by a newer price if one came). */
  | { kind: 'retry'; at: Date; answer: CommandAnswer };

export interface PriceCommandFacts extends AttemptFacts {
  /** `checking`: the outcome is a check's, the request was sent already. */
  state: CommandState;
}

export function decideAfterPriceAnswer(command: PriceCommandFacts, outcome: PriceCallOutcome, now: Date, policy: RetryPolicy, jitter: number): PriceAnswerDecision {
  if (outcome.kind === 'pending') {
    const answer: CommandAnswer = { ...outcome.answer, outcome: 'pending', at: now.toISOString() };
    const at = new Date(now.getTime() + Math.max(outcome.checkAfterMs, RECHECK_MS));
    if (at.getTime() - command.acceptedAt.getTime() > policy.maxAgeMs) {
      return { kind: 'end', state: 'failed', answer, error: `the platform had not finished the request within STATUS_PUSH_RETRY_MAX_AGE_MS (${policy.maxAgeMs} ms) after acceptance; it may still apply it` };
    }
    return { kind: 'check', at, followUp: outcome.followUp, answer };
  }
  const decision = decideAfterAnswer(command, outcome, now, policy, jitter);
  if (decision.kind === 'retry') {
    // A check that could not be read is asked again; the request itself is never sent twice.
    return command.state === 'checking' ? { kind: 'check', at: decision.at, answer: decision.answer } : decision;
  }
  // The platform has no call for this (skipped): nothing was changed there.
  return { kind: 'end', state: decision.state === 'sent' ? 'sent' : 'failed', answer: decision.answer, error: decision.error };
}

/** The call a command books in its platform's call budget: a price's send and its checks are booked apart. */
export function budgetedCallOf(command: { kind: CommandKind; state: CommandState }): BudgetedCall {
  if (command.kind === 'price') return command.state === 'checking' ? 'catalog:check' : 'catalog:price';
  return command.kind === 'store' ? 'availability:store' : 'availability:product';
}
