import type { FieldError } from '@courier/contracts';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads fields of a platform's JSON payload without trusting its shape: every read is typed and
 * bounded, and every problem becomes a field error (answered as 422), never an exception.
 */
export class PayloadReader {
  readonly errors: FieldError[] = [];

  constructor(private readonly root: unknown) {
    if (!isRecord(root)) this.errors.push({ field: 'body', message: 'must be a JSON object' });
  }

  get ok(): boolean {
    return this.errors.length === 0;
  }

  /** The value at a dotted path (`restaurant.id`), or undefined when any step is missing. */
  value(path: string, from: unknown = this.root): unknown {
    let current: unknown = from;
    for (const key of path.split('.')) {
      if (!isRecord(current) || !Object.prototype.hasOwnProperty.call(current, key)) return undefined;
      current = current[key];
    }
    return current;
  }

  /** A string (numbers are accepted and turned into text: platforms send ids either way). */
  string(path: string, options: { required?: boolean; max?: number; from?: unknown; field?: string } = {}): string | undefined {
    const field = options.field ?? path;
    const raw = this.value(path, options.from);
    if (raw === undefined || raw === null || raw === '') {
      if (options.required) this.errors.push({ field, message: 'is required' });
      return undefined;
    }
    const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
    if (typeof text !== 'string') {
      this.errors.push({ field, message: 'must be a string' });
      return undefined;
    }
    const max = options.max ?? 1000;
    if (text.length > max) {
      this.errors.push({ field, message: `must be at most ${max} characters` });
      return undefined;
    }
    if (CONTROL_CHARACTERS.test(text) || text.includes('\u0000')) {
      this.errors.push({ field, message: 'must not contain control characters' });
      return undefined;
    }
    if (options.required && text.trim() === '') {
      this.errors.push({ field, message: 'must not be empty' });
      return undefined;
    }
    return text;
  }

  /** A finite number (numeric strings are accepted), optionally at least `min`. */
  number(path: string, options: { required?: boolean; min?: number; max?: number; from?: unknown; field?: string } = {}): number | undefined {
    const field = options.field ?? path;
    const raw = this.value(path, options.from);
    if (raw === undefined || raw === null || raw === '') {
      if (options.required) this.errors.push({ field, message: 'is required' });
      return undefined;
    }
    const value = typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.errors.push({ field, message: 'must be a number' });
      return undefined;
    }
    if (options.min !== undefined && value < options.min) {
      this.errors.push({ field, message: `must be at least ${options.min}` });
      return undefined;
    }
    if (options.max !== undefined && value > options.max) {
      this.errors.push({ field, message: `must be at most ${options.max}` });
      return undefined;
    }
    return value;
  }

  boolean(path: string, options: { from?: unknown; field?: string } = {}): boolean | undefined {
    const raw = this.value(path, options.from);
    if (raw === undefined || raw === null) return undefined;
    if (typeof raw !== 'boolean') {
      this.errors.push({ field: options.field ?? path, message: 'must be a boolean' });
      return undefined;
    }
    return raw;
  }

  /** A date: ISO 8601 text or epoch milliseconds. */
  date(path: string, options: { from?: unknown; field?: string } = {}): Date | undefined {
    const raw = this.value(path, options.from);
    if (raw === undefined || raw === null || raw === '') return undefined;
    const date = typeof raw === 'number' ? new Date(raw) : typeof raw === 'string' && raw.length <= 64 ? new Date(raw) : new Date(Number.NaN);
    if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 2000 || date.getUTCFullYear() > 2200) {
      this.errors.push({ field: options.field ?? path, message: 'must be a date (ISO 8601 or epoch milliseconds)' });
      return undefined;
    }
    return date;
  }

  /** An array of at most `max` entries (absent: empty). */
  array(path: string, options: { max?: number; from?: unknown; field?: string } = {}): unknown[] {
    const raw = this.value(path, options.from);
    if (raw === undefined || raw === null) return [];
    const max = options.max ?? 500;
    if (!Array.isArray(raw)) {
      this.errors.push({ field: options.field ?? path, message: 'must be an array' });
      return [];
    }
    if (raw.length > max) {
      this.errors.push({ field: options.field ?? path, message: `must have at most ${max} entries` });
      return [];
    }
    return raw;
  }
}

/** Non-empty parts joined with ", " (addresses). */
export function joinParts(...parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(', ');
}

/** Non-empty parts joined with a space (names, street and number). */
export function joinWords(...parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ');
}
