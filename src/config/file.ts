import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { closest, distance } from 'fastest-levenshtein';
import { CONFIG_OPTION, OPTIONS } from './options.js';
import { ConfigError } from './problems.js';

const FLAGS = new Set(OPTIONS.map((option) => option.flag));
const EXAMPLE = '{"port": 4010, "completion": "immediate"}';

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The setting a mistyped key most likely meant: camelCase for kebab-case, or a typo within two edits. */
function meantKey(name: string): string | undefined {
  const kebabbed = kebab(name);
  if (FLAGS.has(kebabbed)) return kebabbed;
  const nearest = closest(kebabbed, [...FLAGS]);
  return distance(kebabbed, nearest) <= 2 ? nearest : undefined;
}

function unknownKey(name: string, path: string): string {
  const meant = meantKey(name);
  const hint = meant
    ? `did you mean "${meant}"? Keys are the flag names`
    : `keys are the flag names: ${[...FLAGS].join(', ')}`;
  return `"${name}" in ${path} is not a setting (${hint})`;
}

/**
 * The settings of a `--config FILE`: a JSON object keyed by the long flag names (kebab-case, as
 * typed on the command line, so a flag and its file key never differ). Values are JSON numbers,
 * strings or, for cors, an array; they are validated later with the flags and environment.
 * A relative keys path is resolved against the file's folder, where it was written.
 */
export function readConfigFile(path: string): ReadonlyMap<string, unknown> {
  const where = `--${CONFIG_OPTION.flag} ${path}`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if (err instanceof SyntaxError) throw new ConfigError([`${where} is not JSON (${err.message})`]);
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError([code === 'ENOENT' ? `${where}: no such file` : `${where} cannot be read (${code})`]);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ConfigError([`${where} must hold a JSON object keyed by flag name, e.g. ${EXAMPLE}`]);
  const problems: string[] = [];
  const values = new Map<string, unknown>();
  for (const [name, raw] of Object.entries(json)) {
    if (!FLAGS.has(name)) problems.push(unknownKey(name, path));
    else values.set(name, name === 'keys' && typeof raw === 'string' && raw ? resolve(dirname(path), raw) : raw);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values;
}
