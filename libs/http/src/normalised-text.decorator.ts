import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { forbiddenCharacterIn, FORBIDDEN_CHARACTERS_MESSAGE, normalisedOrSame } from '@courier/domain';

/**
 * An id a client chooses, or a reason: stored NFC and trimmed, and refused (422, naming the field)
 * with a control, bidirectional or zero-width character (@courier/domain normaliseText). Other
 * decorators on the field (IsString, MaxLength, IsNotEmpty) see the normalised value.
 */
export function NormalisedText(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? normalisedOrSame(value) : value)),
    ValidateBy(
      {
        name: 'normalisedText',
        validator: {
          validate: (value) => typeof value !== 'string' || forbiddenCharacterIn(value) === undefined,
          defaultMessage: (args) => `${FORBIDDEN_CHARACTERS_MESSAGE} (${forbiddenCharacterIn(String(args?.value)) ?? ''})`,
        },
      },
      options,
    ),
  );
}
