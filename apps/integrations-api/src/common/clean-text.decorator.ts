import { applyDecorators } from '@nestjs/common';
import { Matches } from 'class-validator';

// NUL cannot be stored in PostgreSQL text, and no name or id needs control characters.
// eslint-disable-next-line no-control-regex
const CLEAN_TEXT = /^(?=.*\S)[^\u0000-\u001f\u007f]*$/s;

/** A non-blank string without control characters. */
export function IsCleanText() {
  return applyDecorators(Matches(CLEAN_TEXT, { message: ({ property }) => `${property} must not be blank or contain control characters` }));
}
