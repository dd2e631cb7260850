import { currentCorrelationId } from '@courier/logging';

/**
 * Headers for an outbound call (platform APIs, webhooks, the intake endpoint) that carry the
 * current correlation id, so the receiving side's logs can be joined with ours. Empty outside a
 * request, message or task scope. Spread it into the call's headers:
 * `fetch(url, { headers: { ...correlationHeaders(), 'Content-Type': 'application/json' } })`.
 */
export function correlationHeaders(): Record<string, string> {
  const correlationId = currentCorrelationId();
  return correlationId ? { 'X-Correlation-Id': correlationId } : {};
}
