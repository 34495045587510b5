import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { expect } from 'vitest';

/**
 * The bin as `npx labelmock` runs it: the single-file bundle, built from the sources by the processes project's
 * global setup (test/bundle-setup.ts). Its node arguments, for tests that spawn it themselves.
 */
export const BIN = [new URL('../dist/labelmock.mjs', import.meta.url).pathname];

/**
 * The real bin (the bundle) as a child process, for the tests that need a server of its own:
 * what it printed, its base URL once the banner is out, its exit. None of the runner's settings leak in.
 * The start has no deadline of its own: on a loaded machine a start may take long, and the test's timeout
 * (or an exit before the banner) ends the wait.
 */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with `http://127.0.0.1:PORT` once the banner is out; rejects if the process exits first. */
  base: Promise<string>;
  exited: Promise<number | null>;
  out(): string;
  err(): string;
}

const isSetting = (name: string) => name.startsWith('LABELMOCK_') || name === 'PORT' || name === 'HOST';

/**
 * `keepSelfCheck`: the runner's LABELMOCK_SELF_CHECK reaches the child too, so the server's answers are checked
 * against the documents (the CLI's own tests, about settings, leave it out).
 */
export function startCli(args: string[], env: Record<string, string> = {}, keepSelfCheck = true): CliProcess {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !isSetting(name) || (keepSelfCheck && name === 'LABELMOCK_SELF_CHECK'),
    ),
  );
  const child = spawn(process.execPath, [...BIN, ...args], {
    cwd: new URL('..', import.meta.url),
    env: { ...clean, ...env },
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /listening on (https?:\/\/\S+)/.exec(out)?.[1];
      if (found && out.includes('try:')) resolve(found);
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    void exited.then((code) => reject(new Error(`exited with ${code}: ${out}${err}`)));
  });
  // A start that never comes is the test's failure, not an unhandled rejection.
  base.catch(() => {});
  return { child, base, exited, out: () => out, err: () => err };
}

/** The bin run with `args` (a tool: record, drift) and what it prints, until it exits. */
export function runBin(args: string[]) {
  const child = spawn(process.execPath, [...BIN, ...args], { cwd: new URL('..', import.meta.url) });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, exited, out: () => out, err: () => err };
}

/** Resolves once nothing answers at `base` any more (the server stopped); the test's timeout bounds the wait. */
export async function untilGone(base: string): Promise<void> {
  const answers = () =>
    fetch(`${base}/_mock/health`).then(
      () => true,
      () => false,
    );
  await expect.poll(answers, { timeout: 30_000, interval: 200 }).toBe(false);
}
