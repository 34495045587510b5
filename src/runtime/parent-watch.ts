/**
 * Calls `onGone` once the process that started this one has exited. `npx labelmock &` then `kill $!` ends npx
 * and its shell, but not the server under them: its parent just changes (to init, or a subreaper), and
 * nothing would ever stop it. Checked twice a second, on a timer that never holds the process open.
 */
export function watchParent(onGone: () => void, intervalMs = 500): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
}
