import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import type { HarEntry } from '../../domain/har/schema.js';
import { answerChecker } from '../../http/self-check/answer-check.js';
import { packageVersion } from '../../version.js';
import { type Io, parseTool, toolCommand } from '../command.js';
import { labelmockDocuments } from '../documents.js';
import { type Recorder, startRecorder } from './recorder.js';
import { MIN_SECRET_CHARS } from './redact.js';

/**
 * `labelmock record --target URL --out FILE.har`: the recording proxy's command. It runs until SIGINT or
 * SIGTERM, then writes the archive, unless a secret survived redaction: then it writes nothing, says where,
 * and exits 1. Exit 2: bad arguments.
 */

interface RecordFlags {
  target: string;
  out: string;
  port: string;
  host: string;
  redact: string[];
}

function command(io: Io): Command {
  return toolCommand('labelmock record', io)
    .description(
      'Record the real service: a proxy that forwards each request to --target, answers with its answer, and ' +
        'writes the exchanges to --out as HAR 1.2 when stopped (Ctrl-C or SIGTERM). Credentials, signatures ' +
        'and the --redact strings are replaced with REDACTED; answers the documents do not describe are noted ' +
        'in each entry (_labelmock.violations).',
    )
    .requiredOption('--target <url>', 'the service to record, e.g. https://api.example.com')
    .requiredOption('--out <file>', 'the HAR file to write')
    .addOption(new Option('--port <n>', 'the port to listen on (0: any)').default('4011'))
    .addOption(new Option('--host <address>', 'the address to listen on').default('127.0.0.1'))
    .addOption(
      new Option('--redact <text>', `a secret to take out wherever it stands (repeatable; ${MIN_SECRET_CHARS}+ chars)`)
        .argParser((value: string, previous: string[] = []) => [...previous, value])
        .default([]),
    );
}

/** The flags, or the exit code when there is nothing to run (help, a bad flag). */
function parse(argv: readonly string[], io: Io): RecordFlags | number {
  const program = parseTool(command(io), argv, io);
  if (typeof program === 'number') return program;
  const flags = program.opts<RecordFlags>();
  const problems: string[] = [];
  if (!/^https?:\/\//i.test(flags.target)) problems.push(`--target must be an http(s) URL, not "${flags.target}"`);
  if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65_535) problems.push(`--port must be 0-65535`);
  for (const secret of flags.redact) {
    if (secret.length < MIN_SECRET_CHARS) problems.push(`--redact "${secret}" is shorter than ${MIN_SECRET_CHARS}`);
  }
  if (problems.length === 0) return flags;
  for (const problem of problems) io.stderr(`labelmock record: ${problem}\n`);
  return 2;
}

/** The archive's text. */
export function harText(entries: readonly HarEntry[]): string {
  const log = { version: '1.2', creator: { name: 'labelmock record', version: packageVersion() }, entries };
  return `${JSON.stringify({ log }, null, 2)}\n`;
}

/** Stops the recorder and writes its archive; the exit code. */
export async function finish(recorder: Recorder, out: string, io: Io): Promise<number> {
  const leaks = await recorder.stop();
  if (leaks.length > 0) {
    for (const leak of leaks) io.stderr(`labelmock record: ${leak}; nothing written\n`);
    return 1;
  }
  await writeFile(out, harText(recorder.entries));
  io.stdout(`labelmock record: ${recorder.entries.length} exchange(s) written to ${out}\n`);
  return 0;
}

/** Runs `labelmock record ...` until a signal stops it; resolves to the exit code. */
export async function runRecord(argv: readonly string[], io: Io): Promise<number> {
  const flags = parse(argv, io);
  if (typeof flags === 'number') return flags;
  const check = answerChecker(await labelmockDocuments());
  const recorder = await startRecorder({
    target: flags.target,
    port: Number(flags.port),
    host: flags.host,
    redact: flags.redact,
    check,
  });
  io.stdout(`labelmock record: ${recorder.url} -> ${flags.target}; Ctrl-C writes ${flags.out}\n`);
  // A failure no exchange caught ends the recording early, not the process: what was recorded is written.
  let failed: Error | undefined;
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('uncaughtException', (err) => {
      failed = err;
      resolve();
    });
  });
  if (failed) io.stderr(`labelmock record: stopped by an error (${failed.message}); writing what was recorded\n`);
  const code = await finish(recorder, flags.out, io);
  return failed ? Math.max(code, 1) : code;
}
