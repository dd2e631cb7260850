import { decodeCursor, encodeCursor } from './cursor';

describe('delivery list cursors', () => {
  it('round-trip a position', () => {
    const position = { createdAt: new Date('2026-11-21T10:00:00.123Z'), id: '6f1c3c3e-8a43-4f7e-9d3c-0c1b2a3d4e5f' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('refuse anything encodeCursor did not make', () => {
    const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of ['', '!!', 'a'.repeat(600), json({}), json(['2026-11-21T10:00:00.123Z']), json(['yesterday', '6f1c3c3e-8a43-4f7e-9d3c-0c1b2a3d4e5f']), json(['2026-11-21T10:00:00.123Z', 'x']), json(['2026-13-45T10:00:00.123Z', '6f1c3c3e-8a43-4f7e-9d3c-0c1b2a3d4e5f'])]) {
      expect(decodeCursor(cursor)).toBeUndefined();
    }
  });
});
