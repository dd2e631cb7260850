/**
 * k8s/extras/monitoring/courier-dashboard.json (Grafana): every query names only metrics the apps
 * export, with labels they have, and the dashboard shows what an on-call engineer looks at first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { exportedMetrics, selectors } from './exported-metrics';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Array<{ refId: string; expr: string; datasource?: { uid: string } }>;
  panels?: Panel[];
}

const dashboard = JSON.parse(read('k8s/extras/monitoring/courier-dashboard.json')) as { uid: string; title: string; panels: Panel[]; templating: { list: Array<{ name: string; type: string }> } };
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const graphs = panels.filter((panel) => panel.type !== 'row');
const queries = graphs.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, ...target })));

/** The metrics an on-call engineer needs on the first screen. */
const ON_CALL_METRICS = [
  'http_request_duration_seconds_count', // intake rate, errors
  'http_request_duration_seconds_bucket', // latency
  'outbox_pending_messages',
  'outbox_oldest_pending_age_seconds',
  'webhook_deliveries_finished_total', // deliveries by outcome
  'webhook_deliveries_open', // retry backlog
  'webhook_delivery_alerts_total',
  'platform_calls_total',
  'status_updates', // held and retrying
  'messaging_dead_letter_messages',
  'platform_call_budget_waits_total',
  'platform_orders_expiring',
  'platform_restaurant_ambiguous_total',
  'platform_order_id_collisions_total',
];

describe('Grafana dashboard (k8s/extras/monitoring/courier-dashboard.json)', () => {
  const metrics = exportedMetrics();

  it('has panels with unique ids and titles, each on the Prometheus data source variable', () => {
    expect(dashboard.uid).toBe('courier-on-call');
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource' }));
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    expect(new Set(graphs.map((panel) => panel.title)).size).toBe(graphs.length);
    for (const panel of graphs) {
      expect({ panel: panel.title, datasource: panel.datasource?.uid, targets: (panel.targets ?? []).length > 0 }).toEqual({ panel: panel.title, datasource: '${datasource}', targets: true });
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
    }
  });

  it.each(queries.map((query) => [`${query.panel} (${query.refId})`, query.expr]))('%s uses only exported metrics and their labels', (_name, expr) => {
    const used = selectors(expr as string);
    expect(used.length).toBeGreaterThan(0);
    for (const { name, labels } of used) {
      expect({ name, exported: metrics.has(name) }).toEqual({ name, exported: true });
      for (const label of labels) expect({ name, label, known: metrics.get(name)!.has(label) }).toEqual({ name, label, known: true });
    }
  });

  it('shows what on call looks at: intake, outbox, webhooks, platforms, status updates, dead letters', () => {
    const used = new Set(queries.flatMap((query) => selectors(query.expr).map((selector) => selector.name)));
    expect(ON_CALL_METRICS.filter((name) => !used.has(name))).toEqual([]);
  });

  it('ships with the monitoring kustomization as a Grafana sidecar ConfigMap', () => {
    expect(read('k8s/extras/monitoring/kustomization.yaml')).toMatch(/configMapGenerator:[\s\S]*files:\s*\n\s*- courier-dashboard\.json[\s\S]*grafana_dashboard: "1"/);
  });

  it('reads Grafana interval variables and quoted values the way the check above needs', () => {
    expect(selectors('sum by (service) (rate(a_total{service="$service", x=~"a|b"}[$__rate_interval]))')).toEqual([{ name: 'a_total', labels: ['service', 'x'] }]);
  });
});
