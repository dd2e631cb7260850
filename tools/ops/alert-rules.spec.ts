/**
 * k8s/extras/monitoring/alerts.yaml: every rule names only metrics the apps export (with labels
 * they have), carries a severity and a summary, and points at its section of docs/operations.md,
 * which documents no alert that is not a rule.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ofKind, renderKustomization } from '../deploy/manifests';
import { exportedMetrics, selectors } from './exported-metrics';

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
/** The rules as `kubectl kustomize k8s/extras/monitoring` renders them (runbook_url made absolute). */
const renderedRules: Rule[] = ofKind(renderKustomization('k8s/extras/monitoring'), 'PrometheusRule').flatMap((rule) =>
  (rule as unknown as { spec: { groups: Array<{ rules: Rule[] }> } }).spec.groups.flatMap((group) => group.rules),
);
const runbookBase = /^RUNBOOK_BASE_URL=(\S+)$/m.exec(read('k8s/extras/monitoring/runbooks.env'))![1];

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
    expect(annotations?.runbook_url).toBe(`RUNBOOK_BASE_URL/docs/operations.md#${slug(alert as string)}`);
    expect(runbook).toContain(`\n### ${alert}\n`);
  });

  it.each(rules.map((rule) => [rule.alert]))('%s renders with an absolute runbook_url', (alert) => {
    const url = renderedRules.find((rule) => rule.alert === alert)?.annotations?.runbook_url;
    expect(url).toBe(`${runbookBase}/docs/operations.md#${slug(alert as string)}`);
    expect(new URL(url!).protocol).toBe('https:');
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
