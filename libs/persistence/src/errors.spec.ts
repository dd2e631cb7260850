import { QueryFailedError } from 'typeorm';
import { isUniqueViolation } from './errors';

describe('isUniqueViolation', () => {
  const pgError = (code: string, constraint?: string) => Object.assign(new Error('duplicate key value'), { code, constraint });

  it('recognises 23505 of a listed constraint, from TypeORM or from pg directly', () => {
    expect(isUniqueViolation(new QueryFailedError('INSERT ...', [], pgError('23505', 'a_key')), ['a_key'])).toBe(true);
    expect(isUniqueViolation(pgError('23505', 'a_key'), ['a_key', 'b_key'])).toBe(true);
  });

  it('refuses another constraint, another error code, or something that is no database error', () => {
    expect(isUniqueViolation(pgError('23505', 'other_key'), ['a_key'])).toBe(false);
    expect(isUniqueViolation(pgError('23503', 'a_key'), ['a_key'])).toBe(false);
    expect(isUniqueViolation(new Error('boom'), ['a_key'])).toBe(false);
    expect(isUniqueViolation(undefined, ['a_key'])).toBe(false);
  });
});
