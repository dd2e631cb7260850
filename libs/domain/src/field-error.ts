/**
 * One field-level problem, shaped like the `errors` entries of a 422 problem body.
 * Declared here rather than imported so that the domain depends on nothing.
 */
export interface FieldError {
  field: string;
  message: string;
}
