import { checkDeliveryCoordinates } from './delivery-coordinates';

describe('checkDeliveryCoordinates', () => {
  it('accepts neither coordinate', () => {
    expect(checkDeliveryCoordinates({})).toEqual([]);
    expect(checkDeliveryCoordinates({ deliveryLatitude: null, deliveryLongitude: null })).toEqual([]);
  });

  it('accepts both within range, bounds included', () => {
    expect(checkDeliveryCoordinates({ deliveryLatitude: 41.0082, deliveryLongitude: 28.9784 })).toEqual([]);
    expect(checkDeliveryCoordinates({ deliveryLatitude: 90, deliveryLongitude: 180 })).toEqual([]);
    expect(checkDeliveryCoordinates({ deliveryLatitude: -90, deliveryLongitude: -180 })).toEqual([]);
    expect(checkDeliveryCoordinates({ deliveryLatitude: 0, deliveryLongitude: 0 })).toEqual([]);
  });

  it('asks for the longitude when only the latitude is given', () => {
    expect(checkDeliveryCoordinates({ deliveryLatitude: 41 })).toEqual([{ field: 'deliveryLongitude', message: 'must be given together with deliveryLatitude' }]);
  });

  it('asks for the latitude when only the longitude is given (0 counts as given)', () => {
    expect(checkDeliveryCoordinates({ deliveryLongitude: 0 })).toEqual([{ field: 'deliveryLatitude', message: 'must be given together with deliveryLongitude' }]);
  });

  it.each([90.0001, -90.0001, 91, -1000])('refuses latitude %p', (latitude) => {
    expect(checkDeliveryCoordinates({ deliveryLatitude: latitude, deliveryLongitude: 10 })).toEqual([
      { field: 'deliveryLatitude', message: 'must be between -90 and 90' },
    ]);
  });

  it.each([180.0001, -180.0001, 360])('refuses longitude %p', (longitude) => {
    expect(checkDeliveryCoordinates({ deliveryLatitude: 10, deliveryLongitude: longitude })).toEqual([
      { field: 'deliveryLongitude', message: 'must be between -180 and 180' },
    ]);
  });

  it('reports both out of range at once', () => {
    expect(checkDeliveryCoordinates({ deliveryLatitude: 100, deliveryLongitude: 200 }).map((error) => error.field)).toEqual([
      'deliveryLatitude',
      'deliveryLongitude',
    ]);
  });

  it('refuses values that are not finite numbers', () => {
    expect(checkDeliveryCoordinates({ deliveryLatitude: NaN, deliveryLongitude: Infinity })).toEqual([
      { field: 'deliveryLatitude', message: 'must be a finite number' },
      { field: 'deliveryLongitude', message: 'must be a finite number' },
    ]);
  });
});
