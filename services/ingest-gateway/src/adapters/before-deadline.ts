/**
 * `promise`'s value, or undefined once `ms` have passed first (the promise runs on). Timers run
 * before the event loop reads sockets, so on a busy loop the deadline would fire ahead of an
 * answer already waiting to be read: it gives up only after one more read (setImmediate runs
 * after the poll phase).
 */
export function beforeDeadline<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  let afterRead: NodeJS.Immediate | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      afterRead = setImmediate(() => resolve(undefined));
    }, ms);
  });
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
    clearImmediate(afterRead);
  });
}
