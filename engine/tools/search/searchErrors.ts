/** A search that could not finish, in words the model can act on. */
export class SearchError extends Error {
  override name = 'SearchError';
}

/** The pattern is not a regular expression JavaScript accepts. */
export class PatternError extends SearchError {
  override name = 'PatternError';
}

/** The regex ran too long on one file (it likely backtracks catastrophically), or the whole search did. */
export class SearchTimeoutError extends SearchError {
  override name = 'SearchTimeoutError';
}
