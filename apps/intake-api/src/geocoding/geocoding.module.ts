import { Module } from '@nestjs/common';
import { Geocoder } from './geocoder';

/** Coordinates for orders sent without them (GEOCODER_URL). */
@Module({
  providers: [Geocoder],
  exports: [Geocoder],
})
export class GeocodingModule {}
