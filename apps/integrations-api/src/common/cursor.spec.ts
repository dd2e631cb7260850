import { decodeCursor, encodeCursor } from '@courier/http';
import { isRestaurantId, isUuid, newRestaurantId } from './ids';

describe('cursors', () => {
  const position = { createdAt: new Date('2025-03-04T05:06:07.089Z'), id: '7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21' };

  it('round-trip a position and look opaque', () => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, isUuid)).toEqual(position);
  });

  it.each([
    '',
    'not base64!',
    Buffer.from('{}').toString('base64url'),
    Buffer.from('["2025-03-04T05:06:07.089Z"]').toString('base64url'),
    Buffer.from('["yesterday","7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21"]').toString('base64url'),
    Buffer.from('["2025-13-45T05:06:07.089Z","7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21"]').toString('base64url'),
    Buffer.from('["2025-03-04T05:06:07.089Z","rest_x"]').toString('base64url'),
    'A'.repeat(600),
  ])('refuse %p', (cursor) => {
    expect(decodeCursor(cursor, isUuid)).toBeUndefined();
  });
});

describe('ids', () => {
  it('makes restaurant ids of rest_ + 24 url-safe characters', () => {
    const id = newRestaurantId();
    expect(id).toMatch(/^rest_[A-Za-z0-9_-]{24}$/);
    expect(isRestaurantId(id)).toBe(true);
    expect(isRestaurantId('rest_short')).toBe(false);
    expect(isRestaurantId(`${id}'`)).toBe(false);
  });

  it('accepts canonical UUID text only', () => {
    expect(isUuid('7C0D7C1E-8F0A-4A0E-9D6A-0D6C2B1F4E21')).toBe(true);
    expect(isUuid('{7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21}')).toBe(false);
    expect(isUuid('7c0d7c1e8f0a4a0e9d6a0d6c2b1f4e21')).toBe(false);
    expect(isUuid(42)).toBe(false);
  });
});
