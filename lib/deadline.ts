/** `promise`, or a rejection once `ms` have passed without it settling (the promise itself runs on). */
export function withDeadline<T>(promise: Promise<T>, ms: number, what = "the operation"): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
      timer.unref?.();
    }),
  ]);
}
