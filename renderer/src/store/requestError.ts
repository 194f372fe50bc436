/**
 * A request error as a person reads it: hosts prefix errors with the channel they came on
 * ("settings:set: baseUrl must be…"), which is for logs, not for the window.
 */
export const withoutChannel = (error: string): string => error.replace(/^[a-z]+:[\w-]+: /, '');
