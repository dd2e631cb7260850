import { decodeCursor as decodeListCursor, ListPosition } from '@courier/http';

export { encodeCursor } from '@courier/http';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A position in the delivery log (newest first: created_at, id); ids are delivery UUIDs. */
export function decodeCursor(cursor: string): ListPosition | undefined {
  return decodeListCursor(cursor, (id) => typeof id === 'string' && UUID.test(id));
}
