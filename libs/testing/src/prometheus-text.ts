/** One sample of a Prometheus text exposition: `name{label="value",...} value`. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (version 0.0.4) strictly enough for tests: a malformed line throws. */
export function parsePrometheusText(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.push({ name: match[1], labels: parseLabels(match[3] ?? '', line), value: parseValue(match[4], line) });
  }
  return samples;
}

function parseLabels(body: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const pattern = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
  let position = 0;
  while (position < body.length) {
    pattern.lastIndex = position;
    const match = pattern.exec(body);
    if (!match) throw new Error(`malformed labels in: ${line}`);
    labels[match[1]] = match[2].replace(/\\(["\\n])/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    position = pattern.lastIndex;
  }
  return labels;
}

/** NaN and Inf are read case-insensitively, as Prometheus does (prom-client writes `Nan`). */
function parseValue(raw: string, line: string): number {
  const special = raw.toLowerCase();
  if (special === 'nan') return Number.NaN;
  if (special === '+inf' || special === 'inf') return Number.POSITIVE_INFINITY;
  if (special === '-inf') return Number.NEGATIVE_INFINITY;
  const value = Number(raw);
  if (Number.isNaN(value)) throw new Error(`malformed value in: ${line}`);
  return value;
}

/** The samples named `name` whose labels include `labels`. */
export function samplesOf(samples: MetricSample[], name: string, labels: Record<string, string> = {}): MetricSample[] {
  return samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}
