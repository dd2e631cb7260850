import { coordinatesOf } from './geocoder';

describe('coordinatesOf (Nominatim jsonv2 answers)', () => {
  it('takes the first result, whose lat/lon are strings', () => {
    expect(coordinatesOf([{ lat: '40.98', lon: '29.05', display_name: 'x' }, { lat: '1', lon: '2' }])).toEqual({ latitude: 40.98, longitude: 29.05 });
    expect(coordinatesOf([{ lat: 1.5, lon: -2 }])).toEqual({ latitude: 1.5, longitude: -2 });
  });

  it('finds nothing in empty, malformed or out-of-range answers', () => {
    for (const answer of [[], {}, null, 'x', [null], [{ lat: 'a', lon: '1' }], [{ lat: '', lon: '1' }], [{ lat: '91', lon: '0' }], [{ lat: '0', lon: '181' }], [{ lat: '1' }]]) {
      expect(coordinatesOf(answer)).toBeUndefined();
    }
  });
});
