/**
 * The time a dashboard page is rendered at. Server components render once per request, so reading
 * the clock there is stable; keeping it in one helper also lets the pages stay lint-pure.
 */
export function requestTime(): Date {
  return new Date();
}
