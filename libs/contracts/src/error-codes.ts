/** Machine-readable error codes carried in the `code` field of every problem JSON body. */
export enum ErrorCode {
  MissingRequiredField = 'MISSING_REQUIRED_FIELD',
  InvalidPayload = 'INVALID_PAYLOAD',
  AuthenticationFailed = 'AUTHENTICATION_FAILED',
  IntegrationDisabled = 'INTEGRATION_DISABLED',
  RestaurantNotFound = 'RESTAURANT_NOT_FOUND',
  DuplicateOrderId = 'DUPLICATE_ORDER_ID',
  ValidationError = 'VALIDATION_ERROR',
  RateLimitExceeded = 'RATE_LIMIT_EXCEEDED',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  IntegrationNotFound = 'INTEGRATION_NOT_FOUND',
  IntegrationExists = 'INTEGRATION_EXISTS',
  OrderNotFound = 'ORDER_NOT_FOUND',
  /** The restaurant's catalog has no product with this code (no link, no code row). */
  ProductCodeNotFound = 'PRODUCT_CODE_NOT_FOUND',
  /** No catalog change of this account has this id. */
  CatalogChangeNotFound = 'CATALOG_CHANGE_NOT_FOUND',
  StatusUpdateNotFound = 'STATUS_UPDATE_NOT_FOUND',
  DeliveryNotFound = 'DELIVERY_NOT_FOUND',
  InvalidTransition = 'INVALID_TRANSITION',
  OrderNotDue = 'ORDER_NOT_DUE',
  DeliverBeforePrepare = 'DELIVER_BEFORE_PREPARE',
  AlreadyVerified = 'ALREADY_VERIFIED',
  OrderCanceled = 'ORDER_CANCELED',
  /** A status push's providerOrderId names orders of several platform stores: the caller must send restaurantId. */
  AmbiguousProviderOrderId = 'AMBIGUOUS_PROVIDER_ORDER_ID',
  /** A platform order arrived for an integration while another integration already holds it (an integration replaced). */
  PlatformOrderOfAnotherIntegration = 'PLATFORM_ORDER_OF_ANOTHER_INTEGRATION',
  /** A platform order of an integration the platform has not verified yet: kept for operators, not the account's. */
  OrderWithheld = 'ORDER_WITHHELD',
  NotFound = 'NOT_FOUND',
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  Forbidden = 'FORBIDDEN',
  Conflict = 'CONFLICT',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  /** A platform webhook the platform's own API does not confirm (read back with the store's own key). */
  PlatformOrderNotConfirmed = 'PLATFORM_ORDER_NOT_CONFIRMED',
  /** An availability change's `until` is not in the future. */
  UntilInPast = 'UNTIL_IN_PAST',
  /** The integration is not verified by its platform yet: nothing is sent to the platform for it. */
  IntegrationNotVerified = 'INTEGRATION_NOT_VERIFIED',
  InternalError = 'INTERNAL_ERROR',
}

/** One field-level problem, as listed in `errors` of a 422. */
export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 problem details, as every error response of the suite carries them. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode | string;
  errors?: FieldError[];
  requestId?: string;
  [extension: string]: unknown;
}
