/** Resolves host names when webhook URLs are checked (tests swap in a fixed table). */
export const HOST_RESOLVER = Symbol('HOST_RESOLVER');
