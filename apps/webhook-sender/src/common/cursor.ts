/** A position in a list ordered by (createdAt, id), newest first: opaque to clients (base64url of JSON). */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id]), 'utf8').toString('base64url');
}

/** The position a cursor stands for, or undefined when the cursor was not made by encodeCursor. */
export function decodeCursor(cursor: string): ListPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [createdAt, id] = decoded;
    if (typeof createdAt !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(createdAt) || typeof id !== 'string' || !UUID.test(id)) return undefined;
    const date = new Date(createdAt);
    return Number.isNaN(date.getTime()) ? undefined : { createdAt: date, id };
  } catch {
    return undefined;
  }
}
