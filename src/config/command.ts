import { Command, CommanderError, Option } from 'commander';
import { packageVersion } from '../version.js';
import { CONFIG_OPTION, OPTIONS } from './options.js';
import { ConfigError } from './problems.js';

/** What the command line said: the flags it set (by flag name), or text to print before exiting 0. */
export type ParsedFlags = { kind: 'flags'; flags: ReadonlyMap<string, string> } | { kind: 'exit'; output: string };

const DESCRIPTION =
  'An in-memory, stateful mock of the data-labeling task service (v1 REST API), with a test-control plane ' +
  'under /_mock. State lives in memory and is gone when the server stops, unless --data-dir keeps it.';

const AFTER_HELP = `
Each setting comes from the first of: its flag, its environment variable, the --config file, its default.
A --config file is a JSON object keyed by the flag names without the dashes (kebab-case), e.g.
  {"port": 4010, "completion": "immediate", "cors": ["http://localhost:5173"], "max-tenants": 100}
A relative "keys" path in it is read from the config file's folder.

Examples:
  labelmock --port 4010 --completion immediate
  labelmock --port 0 --log json > requests.log
  labelmock --cors http://localhost:5173 --config labelmock.json`;

const described = (help: string, shownDefault: string | undefined, env: string) =>
  `${help} (${shownDefault === undefined ? '' : `default: ${shownDefault}, `}env: ${env})`;

/**
 * The command as commander sees it, built afresh for each parse (a commander Command keeps the
 * values it parsed). Defaults and environment variables are shown in --help but left to
 * config.ts, which applies them in one place with the --config file between them.
 */
function command(write: (text: string) => void): Command {
  const program = new Command('labelmock').description(DESCRIPTION);
  for (const option of OPTIONS) {
    const flag = option.arg === undefined ? `--${option.flag}` : `--${option.flag} <${option.arg}>`;
    program.addOption(new Option(flag, described(option.help, option.shownDefault, option.env)));
  }
  const config = `--${CONFIG_OPTION.flag} <${CONFIG_OPTION.arg}>`;
  return program
    .addOption(
      new Option(config, described('read settings from a JSON file (see below)', undefined, CONFIG_OPTION.env)),
    )
    .version(packageVersion(), '-v, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show this help and exit')
    .addHelpText('after', AFTER_HELP)
    .allowExcessArguments(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: write, writeErr: write, outputError: () => {} });
}

/** Reads the flags of `argv` (without node and the script). Throws ConfigError for an unknown or incomplete flag. */
export function parseFlags(argv: readonly string[]): ParsedFlags {
  let output = '';
  const program = command((text) => {
    output += text;
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return { kind: 'exit', output };
    // Commander's own wording ("unknown option '--prot' (Did you mean --port?)"), on one line.
    throw new ConfigError([err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')]);
  }
  const flags = new Map<string, string>();
  for (const option of program.options) {
    const value: unknown = program.getOptionValue(option.attributeName());
    // A bare switch given reads as `true`.
    if ((typeof value === 'string' || value === true) && option.long) flags.set(option.long.slice(2), String(value));
  }
  return { kind: 'flags', flags };
}
