import { parseFlags } from './command.js';
import { readConfigFile } from './file.js';
import { CONFIG_OPTION, OPTIONS, type OptionDef } from './options.js';
import { ConfigError, shown } from './problems.js';
import { type Config, ConfigSchema, defaultConfig, SelfCheckModeSchema } from './schema.js';

/**
 * The one place that reads flags, environment variables and --config files. Each setting comes
 * from the first of: its flag, its environment variable, the --config file, its default; every
 * value is validated with zod, and every problem becomes one readable line (ConfigError).
 */

export { ConfigError } from './problems.js';
export { type Config, defaultConfig, type KeyEntry, type LogFormat } from './schema.js';

/**
 * The self-check mode for apps made with createApp: LABELMOCK_SELF_CHECK applies to them too, so a
 * test run (this repository's, or a user's) can check every answer without passing an option.
 */
export function selfCheckFromEnvironment(env: NodeJS.ProcessEnv = process.env): Config['selfCheck'] {
  const raw = fromEnv(env, 'LABELMOCK_SELF_CHECK');
  if (raw === undefined) return defaultConfig.selfCheck;
  const result = SelfCheckModeSchema.safeParse(raw);
  if (!result.success) throw new ConfigError([`LABELMOCK_SELF_CHECK must be strict, log or off (got ${shown(raw)})`]);
  return result.data;
}

export interface ReadOptions {
  /** Whether stdout is a terminal: the request log is then pretty by default, json otherwise. */
  stdoutIsTTY?: boolean;
}

/** Start the server with `config`, or print `output` (--help, --version) and exit 0. */
export type CommandLine = { kind: 'run'; config: Config } | { kind: 'exit'; output: string };

interface Given {
  /** How a problem names where the value came from: `--port`, `PORT`, `"port" in labelmock.json`. */
  where: string;
  raw: unknown;
}

/** The --config file's settings, by flag name, when there is one. */
type File = { path: string; values: ReadonlyMap<string, unknown> } | undefined;

/** An empty environment variable counts as unset, as `PORT= labelmock` means to most shells' users. */
const fromEnv = (env: NodeJS.ProcessEnv, name: string) => (env[name] === '' ? undefined : env[name]);

function given(
  option: OptionDef,
  flags: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
  file: File,
): Given | undefined {
  const flag = flags.get(option.flag);
  if (flag !== undefined) return { where: `--${option.flag}`, raw: flag };
  const fromEnvironment = fromEnv(env, option.env);
  if (fromEnvironment !== undefined) return { where: option.env, raw: fromEnvironment };
  if (file?.values.has(option.flag))
    return { where: `"${option.flag}" in ${file.path}`, raw: file.values.get(option.flag) };
  return undefined;
}

export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  options: ReadOptions = {},
): CommandLine {
  const parsed = parseFlags(argv);
  if (parsed.kind === 'exit') return parsed;
  const configPath = parsed.flags.get(CONFIG_OPTION.flag) ?? fromEnv(env, CONFIG_OPTION.env);
  const file: File = configPath === undefined ? undefined : { path: configPath, values: readConfigFile(configPath) };
  const settings: Partial<Record<keyof Config, unknown>> = {};
  const problems: string[] = [];
  for (const option of OPTIONS) {
    const value = given(option, parsed.flags, env, file);
    if (!value) continue;
    const result = option.value.safeParse(value.raw);
    if (result.success) settings[option.key] = result.data;
    else {
      const messages = new Set(result.error.issues.map((issue) => issue.message));
      for (const message of messages) problems.push(`${value.where} ${message} (got ${shown(value.raw)})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const defaults: Config = { ...defaultConfig, log: options.stdoutIsTTY ? 'pretty' : 'json' };
  return { kind: 'run', config: ConfigSchema.parse({ ...defaults, ...settings }) };
}

/** The configuration of a command line that runs the server (tests); --help or --version throw. */
export function readConfig(argv: readonly string[], env: NodeJS.ProcessEnv, options: ReadOptions = {}): Config {
  const commandLine = parseCommandLine(argv, env, options);
  if (commandLine.kind === 'exit') throw new ConfigError(['--help and --version print text and start nothing']);
  return commandLine.config;
}
