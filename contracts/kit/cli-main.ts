import { writeFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { registeredContracts, type Tag } from './contract.js';
import { formatJson, formatJunit, formatPretty, summarize, summaryLine } from './report.js';
import { PreflightError, runContracts, selectContracts } from './runner.js';
import { TAGS } from './tags.js';

/** The `labelmock-contracts` command, callable from tests with its own output and fetch. */

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The fetch requests go through (default: globalThis.fetch). */
  fetch?: typeof fetch;
}

const DESCRIPTION =
  'Runs the contract suite of the data-labeling task service interface against any implementation over HTTP.';

const AFTER_HELP = `
Tags: interface (what any implementation must do, by the interface and the real-service notes),
client (what the official clients call beyond the interface: the v2 API), labelmock (labelmock's own
choices where the interface is silent), control (needs /_mock routes; a
contract is skipped, with the reason, when the target's /_mock/openapi.json lacks a route it needs).
A contract runs when every one of its tags is selected. Default: interface,control.

Safety: state resets, state imports and clock moves run only on keys given with --disposable-key;
contracts that need them are skipped on other keys.

Exit status: 0 all passed or skipped, 1 a contract failed (a rule or its setup), 2 bad arguments or
the target did not answer or refused the key (one line on stderr).

Examples:
  labelmock-contracts --base-url http://127.0.0.1:3000/v1 --api-key test_ci_1 --other-api-key test_ci_2
  labelmock-contracts --base-url https://staging.example --api-key $KEY --tags interface \\
    --reporter junit --output contracts.xml
  labelmock-contracts --list --tags interface`;

const int = (what: string, min: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${what} must be an integer >= ${min}`);
  return n;
};

function parseTags(value: string): Tag[] {
  const tags = value
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const unknown = tags.filter((t) => !TAGS.includes(t as Tag));
  if (unknown.length > 0 || tags.length === 0)
    throw new InvalidArgumentError(`tags are a comma list of ${TAGS.join(', ')} (got "${value}")`);
  return tags as Tag[];
}

function command(write: (text: string) => void): Command {
  return new Command('labelmock-contracts')
    .description(DESCRIPTION)
    .addOption(new Option('--base-url <url>', 'server root, with or without /v1 (e.g. http://127.0.0.1:3000)'))
    .addOption(new Option('--api-key <key>', 'a key of the account to test (a test key is best)'))
    .addOption(new Option('--other-api-key <key>', 'a key of another account: enables the tenant-isolation contracts'))
    .addOption(new Option('--live-api-key <key>', 'the live key of the same account: enables the test/live contracts'))
    .addOption(
      new Option('--disposable-key <key...>', 'keys whose data may be reset or imported over and clock moved').default(
        [],
      ),
    )
    .addOption(
      new Option('--tags <list>', 'run contracts whose tags are all in this list')
        .argParser(parseTags)
        .default(['interface', 'control'] as Tag[], 'interface,control'),
    )
    .addOption(new Option('--grep <text>', 'only contracts whose name contains this text (case-insensitive)'))
    .addOption(new Option('--list', 'print the selected contracts with their tags and needed routes, run nothing'))
    .addOption(new Option('--reporter <name>', 'output format').choices(['pretty', 'json', 'junit']).default('pretty'))
    .addOption(new Option('--output <file>', 'write the report to this file (pretty progress still goes to stdout)'))
    .addOption(new Option('--timeout <ms>', 'per-request timeout').argParser(int('--timeout', 1)).default(30_000))
    .addOption(
      new Option('--wait <ms>', 'how long asynchronous outcomes are polled').argParser(int('--wait', 0)).default(5000),
    )
    .addOption(new Option('--rps <n>', 'at most this many requests per second').argParser(int('--rps', 1)))
    .addOption(
      new Option('--retries <n>', 'retries of connection errors and 429 answers')
        .argParser(int('--retries', 0))
        .default(3),
    )
    .addOption(new Option('--bail', 'stop after the first failed contract'))
    .addOption(
      new Option('--keep-tasks', 'leave the tasks contracts created as they are (default: cancel pending ones)'),
    )
    .helpOption('-h, --help', 'show this help and exit')
    .addHelpText('after', AFTER_HELP)
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeOut: write, writeErr: write, outputError: () => {} });
}

interface Flags {
  baseUrl?: string;
  apiKey?: string;
  otherApiKey?: string;
  liveApiKey?: string;
  disposableKey: string[];
  tags: Tag[];
  grep?: string;
  list?: boolean;
  reporter: 'pretty' | 'json' | 'junit';
  output?: string;
  timeout: number;
  wait: number;
  rps?: number;
  retries: number;
  bail?: boolean;
  keepTasks?: boolean;
}

/** Runs the command; answers the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let help = '';
  const program = command((text) => {
    help += text;
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed') {
      io.stdout(help);
      return 0;
    }
    io.stderr(`labelmock-contracts: ${err.message.replace(/^error: /, '')}\n(see --help)\n`);
    return 2;
  }
  const flags = program.opts<Flags>();
  const contracts = selectContracts({ tags: flags.tags, grep: flags.grep }, registeredContracts());

  if (flags.list) {
    for (const c of contracts) {
      const cites = c.cites ? `  cites: ${c.cites}` : '';
      const needs = c.needs.length > 0 ? `  needs: ${c.needs.join(', ')}` : '';
      io.stdout(`${c.name}  [${c.tags.join(',')}]${cites}${needs}\n`);
    }
    io.stdout(`${contracts.length} contracts\n`);
    return 0;
  }

  const usage = (message: string) => {
    io.stderr(`labelmock-contracts: ${message}\n(see --help)\n`);
    return 2;
  };
  const { baseUrl, apiKey } = flags;
  if (!baseUrl || !apiKey) return usage('--base-url and --api-key are required');
  if (!/^https?:\/\/[^/]+/.test(baseUrl) || !URL.canParse(baseUrl))
    return usage(`--base-url must be an http(s) URL (got "${baseUrl}")`);
  if (flags.otherApiKey === apiKey)
    return usage('--other-api-key must differ from --api-key (it stands for another account)');
  if (contracts.length === 0) return usage('no contract matches --tags and --grep');

  const toStdout = flags.reporter === 'pretty' || flags.output !== undefined;
  let results: Awaited<ReturnType<typeof runContracts>>;
  try {
    results = await runContracts({
      baseUrl,
      apiKey,
      otherApiKey: flags.otherApiKey,
      liveApiKey: flags.liveApiKey,
      disposableKeys: flags.disposableKey,
      fetch: io.fetch ?? globalThis.fetch,
      timeoutMs: flags.timeout,
      waitMs: flags.wait,
      rps: flags.rps,
      retries: flags.retries,
      contracts,
      tags: flags.tags,
      bail: flags.bail,
      cancelCreated: !flags.keepTasks,
      preflight: true,
      onResult: (result) => {
        if (toStdout) io.stdout(`${formatPretty(result)}\n`);
      },
    });
  } catch (err) {
    if (err instanceof PreflightError) {
      io.stderr(`labelmock-contracts: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const summary = summarize(results);
  if (toStdout) io.stdout(`${summaryLine(summary)}\n`);
  const report =
    flags.reporter === 'json'
      ? formatJson(results)
      : flags.reporter === 'junit'
        ? formatJunit(results)
        : `${results.map(formatPretty).join('\n')}\n${summaryLine(summary)}\n`;
  if (flags.output !== undefined) writeFileSync(flags.output, report);
  else if (flags.reporter !== 'pretty') io.stdout(report);
  return summary.failed + summary.setupFailed > 0 ? 1 : 0;
}
