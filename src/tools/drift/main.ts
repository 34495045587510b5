import { readFile, writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { templateFinder } from '../../http/self-check/answer-check.js';
import { type Io, parseTool, toolCommand } from '../command.js';
import { labelmockDocuments } from '../documents.js';
import { type Exchange, RecordingError, readRecording } from './exchanges.js';
import { type DriftTarget, inProcessTarget, remoteTarget, replay } from './replay.js';
import { baselineText, json, junit, pretty, summarize } from './report.js';

/**
 * `labelmock drift FILE`: replays a recording (HAR, or a VCR cassette) against a fresh tenant of labelmock and
 * reports, per operation, where labelmock's answers differ from the recorded ones. Exit 0: no drift beyond the
 * baseline; 1: drift; 2: bad arguments, a file that cannot be read, or a --base-url that does not answer.
 */

interface DriftFlags {
  baseUrl?: string;
  reporter: 'pretty' | 'json' | 'junit';
  output?: string;
  baseline?: string;
  writeBaseline?: string;
  keepCallbackUrls?: boolean;
}

function command(io: Io): Command {
  return toolCommand('labelmock drift', io)
    .description(
      'Replay a recording (HAR 1.2, or a vcrpy / Ruby VCR cassette) against a fresh tenant of labelmock, in order, ' +
        "and report where labelmock's answers differ: status, missing and extra fields, types, and values where " +
        'labelmock is deterministic (ids, times and signed URLs compare by type).',
    )
    .argument('<recording>', 'the HAR file or cassette')
    .option('--base-url <url>', 'a running labelmock to replay against (default: one in this process)')
    .addOption(new Option('--reporter <name>', 'output format').choices(['pretty', 'json', 'junit']).default('pretty'))
    .option('--output <file>', 'write the report to a file instead of stdout')
    .option('--baseline <file>', 'accepted drift (a file --write-baseline wrote): only other drift fails')
    .option('--write-baseline <file>', 'write the drift found as a baseline file')
    .option(
      '--keep-callback-urls',
      "post replayed tasks' callbacks to the recorded callback_url (default: a local sink of drift's own, so a " +
        'production recording never calls production webhooks)',
    );
}

async function readAccepted(file: string | undefined): Promise<Set<string>> {
  if (file === undefined) return new Set();
  const value = JSON.parse(await readFile(file, 'utf8')) as { accepted?: unknown };
  if (!Array.isArray(value.accepted) || !value.accepted.every((s) => typeof s === 'string')) {
    throw new RecordingError(`${file} is not a baseline: {"accepted": ["<signature>", ...]}`);
  }
  return new Set(value.accepted);
}

/** Runs `labelmock drift ...`; resolves to the exit code. */
export async function runDrift(argv: readonly string[], io: Io): Promise<number> {
  const program = parseTool(command(io), argv, io);
  if (typeof program === 'number') return program;
  const flags = program.opts<DriftFlags>();
  const [file] = program.args as [string];
  let exchanges: Exchange[];
  let accepted: Set<string>;
  try {
    exchanges = readRecording(await readFile(file, 'utf8'));
    accepted = await readAccepted(flags.baseline);
  } catch (err) {
    io.stderr(`labelmock drift: ${(err as Error).message}\n`);
    return 2;
  }
  const target: DriftTarget = flags.baseUrl ? remoteTarget(flags.baseUrl) : inProcessTarget();
  let reports: Awaited<ReturnType<typeof replay>>;
  try {
    reports = await replay(exchanges, target, templateFinder(await labelmockDocuments()), {
      keepCallbackUrls: flags.keepCallbackUrls === true,
    });
  } catch (err) {
    const { cause } = err as { cause?: { code?: string; message?: string } };
    const reason = cause?.code ?? cause?.message ?? (err as Error).message;
    io.stderr(`labelmock drift: cannot replay against ${flags.baseUrl ?? 'labelmock'}: ${reason}\n`);
    return 2;
  } finally {
    target.close();
  }
  const summary = summarize(reports, accepted);
  const text = { pretty, json, junit }[flags.reporter](summary);
  if (flags.output) await writeFile(flags.output, text);
  else io.stdout(text);
  if (flags.writeBaseline) await writeFile(flags.writeBaseline, baselineText(summary));
  return summary.new > 0 ? 1 : 0;
}
