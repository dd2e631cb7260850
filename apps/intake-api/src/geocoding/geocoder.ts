import { Injectable, Logger } from '@nestjs/common';
import { IntakeConfig } from '../app/intake-api.config';

export interface Coordinates {
  latitude: number;
  longitude: number;
}

export const GEOCODER_USER_AGENT = 'courier-intake-api/0.1 (order intake geocoding)';
/** A Nominatim answer with limit=1 is a few hundred bytes; anything far larger is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Nominatim-compatible geocoding: `GET {GEOCODER_URL}/search?q=<address>&format=jsonv2&limit=1`.
 * Never throws: any failure (timeout, non-2xx, redirect, junk, no result) gives undefined and a
 * warning, and the order is processed without coordinates (see docs/intake-api.md).
 */
@Injectable()
export class Geocoder {
  private readonly logger = new Logger('Geocoder');

  constructor(private readonly config: IntakeConfig) {}

  get enabled(): boolean {
    return Boolean(this.config.GEOCODER_URL);
  }

  async geocode(address: string): Promise<Coordinates | undefined> {
    if (!this.config.GEOCODER_URL) return undefined;
    const url = new URL(`${this.config.GEOCODER_URL.replace(/\/+$/, '')}/search`);
    url.search = new URLSearchParams({ q: address, format: 'jsonv2', limit: '1' }).toString();
    const started = Date.now();
    try {
      const response = await fetch(url, {
        headers: { 'User-Agent': GEOCODER_USER_AGENT, Accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.config.GEOCODER_TIMEOUT_MS),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`geocoder answered ${response.status}`);
      if (text.length > MAX_ANSWER_BYTES) throw new Error('geocoder answer too large');
      const coordinates = coordinatesOf(JSON.parse(text));
      if (!coordinates) this.logger.warn({ durationMs: Date.now() - started }, 'geocoder found no usable result; order goes on without coordinates');
      return coordinates;
    } catch (error) {
      this.logger.warn({ err: error, durationMs: Date.now() - started }, 'geocoding failed; order goes on without coordinates');
      return undefined;
    }
  }
}

/** The first result's lat/lon (Nominatim sends them as strings), when they are in range. */
export function coordinatesOf(answer: unknown): Coordinates | undefined {
  if (!Array.isArray(answer) || answer.length === 0) return undefined;
  const first = answer[0] as { lat?: unknown; lon?: unknown } | null;
  if (typeof first !== 'object' || first === null) return undefined;
  const latitude = toNumber(first.lat);
  const longitude = toNumber(first.lon);
  if (latitude === undefined || longitude === undefined) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return { latitude, longitude };
}

function toNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  return Number.isFinite(number) ? number : undefined;
}
