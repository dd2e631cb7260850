/**
 * Whether `error` (a TypeORM QueryFailedError or the pg error itself) is PostgreSQL's unique
 * violation (23505) of one of `constraints`: a conflict the caller expects and answers, unlike any
 * other failure of the statement.
 */
export function isUniqueViolation(error: unknown, constraints: readonly string[]): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } } | undefined)?.driverError ?? (error as { code?: string; constraint?: string } | undefined);
  return driverError?.code === '23505' && constraints.includes(driverError.constraint ?? '');
}
