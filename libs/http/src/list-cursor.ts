/** A position in a list ordered by (createdAt, id), for cursor paging: opaque to clients (base64url of JSON). Each app says what a valid id is. */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id]), 'utf8').toString('base64url');
}

/** The position a cursor stands for, or undefined when the cursor was not made by encodeCursor. */
export function decodeCursor(cursor: string, isId: (id: unknown) => boolean): ListPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [createdAt, id] = decoded;
    if (typeof createdAt !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(createdAt) || !isId(id)) return undefined;
    const date = new Date(createdAt);
    return Number.isNaN(date.getTime()) ? undefined : { createdAt: date, id: id as string };
  } catch {
    return undefined;
  }
}
