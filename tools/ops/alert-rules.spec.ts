/**
 * k8s/extras/monitoring/alerts.yaml: every rule names only metrics the apps export (with labels
 * they have), carries a severity and a summary, and points at its section of docs/operations.md,
 * which documents no alert that is not a rule.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { parse } from 'yaml';
import type { Messaging } from '@courier/messaging';
import { DatabaseMetrics, HttpMetrics, MessagingMetrics } from '@courier/observability';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const document = parse(read('k8s/extras/monitoring/alerts.yaml'));
const rules: Rule[] = document.spec.groups.flatMap((group: { rules: Rule[] }) => group.rules);
const runbook = read('docs/operations.md');

/** Metric name -> label names, from the registries the apps build (MetricsModule's parts). */
function exportedMetrics(): Map<string, Set<string>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new HttpMetrics(registry);
  new DatabaseMetrics(registry, {} as DataSource, { cacheMs: 5_000, timeoutMs: 1_000 });
  const messaging = { subscribedQueues: () => [], onMessageHandled: () => undefined, transport: { queueStats: async () => ({ ready: 0, deadLettered: 0 }), isReady: async () => true } };
  new MessagingMetrics(registry, messaging as unknown as Messaging, { cacheMs: 5_000, timeoutMs: 1_000 });
  const metrics = new Map<string, Set<string>>();
  for (const metric of registry.getMetricsAsArray() as unknown as Array<{ name: string; type: string; labelNames: string[] }>) {
    const labels = new Set(['service', ...metric.labelNames]);
    const names = metric.type === 'histogram' ? ['_bucket', '_sum', '_count'].map((suffix) => metric.name + suffix) : [metric.name];
    for (const name of names) metrics.set(name, name.endsWith('_bucket') ? new Set([...labels, 'le']) : labels);
  }
  // The apps' own metrics (webhook-sender's deliveries, status-dispatcher's platform calls), by
  // their declaration (apps are not imported from tools).
  for (const file of ['apps/webhook-sender/src/sending/webhook-metrics.ts', 'apps/status-dispatcher/src/status-updates/dispatch-metrics.ts', 'apps/status-dispatcher/src/platform-orders/platform-b-expiry.metrics.ts']) {
    for (const match of read(file).matchAll(/name: '([a-z_]+)'(.*?)registers:/gs)) {
      const declared = /labelNames: \[([^\]]*)\]/.exec(match[2])?.[1] ?? '';
      const labels = new Set(['service', ...declared.split(',').map((label) => label.trim().replace(/'/g, '')).filter(Boolean)]);
      metrics.set(match[1], labels);
      for (const suffix of ['_bucket', '_sum', '_count']) metrics.set(match[1] + suffix, new Set([...labels, 'le']));
    }
  }
  // Made by Prometheus for every target.
  metrics.set('up', new Set(['job', 'pod', 'namespace', 'instance', 'container']));
  return metrics;
}

const KEYWORDS = new Set(['by', 'without', 'and', 'or', 'unless', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset']);

/** The metric selectors of a PromQL expression: name and the label names it matches on. */
function selectors(expr: string): Array<{ name: string; labels: string[] }> {
  const cleaned = expr
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ');
  const found: Array<{ name: string; labels: string[] }> = [];
  const token = /([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?(\s*\()?/g;
  for (const match of cleaned.matchAll(token)) {
    const [, name, matchers, call] = match;
    if (call || KEYWORDS.has(name)) continue;
    const labels = [...(matchers ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)/g)].map((label) => label[1]);
    found.push({ name, labels });
  }
  return found;
}

/** GitHub's anchor of a heading. */
const slug = (heading: string) => heading.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');

describe('alert rules (k8s/extras/monitoring/alerts.yaml)', () => {
  const metrics = exportedMetrics();

  it('is a PrometheusRule with uniquely named alerts', () => {
    expect(document).toMatchObject({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule' });
    expect(rules.length).toBeGreaterThanOrEqual(10);
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
  });

  it.each(rules.map((rule) => [rule.alert, rule]))('%s uses only exported metrics and their labels', (_alert, rule) => {
    const used = selectors((rule as Rule).expr);
    expect(used.length).toBeGreaterThan(0);
    for (const { name, labels } of used) {
      expect({ name, exported: metrics.has(name) }).toEqual({ name, exported: true });
      for (const label of labels) expect({ name, label, known: metrics.get(name)!.has(label) }).toEqual({ name, label, known: true });
    }
  });

  it.each(rules.map((rule) => [rule.alert, rule]))('%s has a severity, a summary and a runbook section', (alert, rule) => {
    const { labels, annotations } = rule as Rule;
    expect(['page', 'ticket']).toContain(labels?.severity);
    expect(annotations?.summary?.length).toBeGreaterThan(10);
    expect(annotations?.runbook).toBe(`docs/operations.md#${slug(alert as string)}`);
    expect(runbook).toContain(`\n### ${alert}\n`);
  });

  it('documents no alert that is not a rule', () => {
    const alertsSection = runbook.slice(runbook.indexOf('\n## Alerts\n'));
    const documented = [...alertsSection.matchAll(/\n### (\S+)\n/g)].map((match) => match[1]);
    expect(documented.sort()).toEqual(rules.map((rule) => rule.alert).sort());
  });

  it('reads PromQL selectors the way the checks above need', () => {
    expect(selectors('sum by (service) (rate(http_request_duration_seconds_count{status_code=~"5.."}[5m])) > 0.05')).toEqual([
      { name: 'http_request_duration_seconds_count', labels: ['status_code'] },
    ]);
    expect(selectors('max by (queue) (a_metric) == 0 or b_metric{x="y", z!="w"} > 5000')).toEqual([
      { name: 'a_metric', labels: [] },
      { name: 'b_metric', labels: ['x', 'z'] },
    ]);
  });
});
