/**
 * docker compose file reading for the deployment tests: YAML with merge keys (`<<: *anchor`) and
 * compose's variable interpolation, evaluated with an empty shell environment (the defaults a
 * developer gets with a plain `docker compose up`).
 */
import { parse } from 'yaml';

/** Interpolates ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?err}, $VAR and $$ as compose does. */
export function interpolate(text: string, shell: Record<string, string | undefined> = {}): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name?: string, operator?: string, operand?: string, bare?: string) => {
    if (whole === '$$') return '$';
    const variable = name ?? bare ?? '';
    const value = shell[variable];
    const unsetOrEmpty = value === undefined || value === '';
    if (operator === ':-') return unsetOrEmpty ? (operand ?? '') : (value as string);
    if (operator === '-') return value === undefined ? (operand ?? '') : value;
    if (operator === ':?' || operator === '?') {
      if (operator === ':?' ? unsetOrEmpty : value === undefined) throw new Error(`compose: ${variable} is required: ${operand}`);
      return value as string;
    }
    return value ?? '';
  });
}

function interpolateDeep(value: unknown, shell: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') return interpolate(value, shell);
  if (Array.isArray(value)) return value.map((item) => interpolateDeep(item, shell));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateDeep(item, shell)]));
  }
  return value;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ComposeService = Record<string, any>;

export interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export function readCompose(source: string, shell: Record<string, string | undefined> = {}): ComposeFile {
  const parsed = parse(source, { merge: true }) as ComposeFile;
  return interpolateDeep(parsed, shell) as ComposeFile;
}

/** `environment:` as a map, whether written as a map or as a list of NAME=value. */
export function serviceEnvironment(service: ComposeService): Record<string, string> {
  const environment = service.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(
      environment.map((entry: string) => {
        const index = entry.indexOf('=');
        return index < 0 ? [entry, ''] : [entry.slice(0, index), entry.slice(index + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, value === null ? '' : String(value)]));
}

/** `ports:` entries as host/container numbers (short syntax "[ip:]host:container[/proto]" or long). */
export function servicePorts(service: ComposeService): { host?: number; container: number; hostIp?: string }[] {
  return (service.ports ?? []).map((entry: string | { target: number; published?: string | number; host_ip?: string }) => {
    if (typeof entry === 'object') return { container: Number(entry.target), host: entry.published === undefined ? undefined : Number(entry.published), hostIp: entry.host_ip };
    const [mapping] = String(entry).split('/');
    const parts = mapping.split(':');
    const container = Number(parts[parts.length - 1]);
    const host = parts.length >= 2 ? Number(parts[parts.length - 2]) : undefined;
    const hostIp = parts.length === 3 ? parts[0] : undefined;
    return { container, host, hostIp };
  });
}
