/**
 * What the apps export to Prometheus, for the checks of the alert rules and the dashboard
 * (tools/ops/*.spec.ts): metric names with their label names, and the selectors of a PromQL query.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { Messaging } from '@courier/messaging';
import { DatabaseMetrics, HttpMetrics, MessagingMetrics } from '@courier/observability';

const root = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(full);
    return entry.name.endsWith('.ts') && !/\.(spec|integration-spec)\.ts$/.test(entry.name) ? [full] : [];
  });
}

const HISTOGRAM_SERIES = ['_bucket', '_sum', '_count'];

/** Metric name -> label names (`service` included: MetricsModule sets it on every series). */
export function exportedMetrics(): Map<string, Set<string>> {
  const metrics = new Map<string, Set<string>>();
  const add = (name: string, type: string, labelNames: string[]) => {
    const labels = new Set(['service', ...labelNames]);
    if (type !== 'histogram') metrics.set(name, labels);
    else for (const suffix of HISTOGRAM_SERIES) metrics.set(name + suffix, suffix === '_bucket' ? new Set([...labels, 'le']) : labels);
  };
  // Declared in the sources of apps and libs (apps are not imported from tools): every prom-client
  // metric built with a literal name.
  for (const file of [...sources(path.join(root, 'apps')), ...sources(path.join(root, 'libs'))]) {
    for (const match of readFileSync(file, 'utf8').matchAll(/new (Counter|Gauge|Histogram|Summary)(?:<[^>]*>)?\(\{\s*name: '([a-z_:]+)'(.*?)registers:/gs)) {
      const declared = /labelNames: \[([^\]]*)\]/.exec(match[3])?.[1] ?? '';
      const labels = declared.split(',').map((label) => label.trim().replace(/'/g, '')).filter(Boolean);
      add(match[2], match[1] === 'Histogram' ? 'histogram' : match[1].toLowerCase(), labels);
    }
  }
  // The registries the apps build (MetricsModule's parts), for prom-client's default metrics and
  // the lib metrics whose names or labels are not literals.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new HttpMetrics(registry);
  new DatabaseMetrics(registry, {} as DataSource, { cacheMs: 5_000, timeoutMs: 1_000 });
  const messaging = { subscribedQueues: () => [], onMessageHandled: () => undefined, transport: { queueStats: async () => ({ ready: 0, deadLettered: 0 }), isReady: async () => true } };
  new MessagingMetrics(registry, messaging as unknown as Messaging, { cacheMs: 5_000, timeoutMs: 1_000 });
  for (const metric of registry.getMetricsAsArray() as unknown as Array<{ name: string; type: string; labelNames: string[] }>) {
    add(metric.name, metric.type, metric.labelNames);
  }
  // Made by Prometheus for every target.
  metrics.set('up', new Set(['job', 'pod', 'namespace', 'instance', 'container']));
  return metrics;
}

const KEYWORDS = new Set(['by', 'without', 'and', 'or', 'unless', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset']);

/** The metric selectors of a PromQL expression: name and the label names it matches on. */
export function selectors(expr: string): Array<{ name: string; labels: string[] }> {
  const cleaned = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
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
