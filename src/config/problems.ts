/**
 * A configuration the CLI cannot start with. It carries one readable line per problem (the CLI
 * prints each as `labelmock: <line>` and exits with 2), never a zod dump.
 */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** A value as the user wrote it, quoted and kept short: `(got "abc")`. */
export function shown(raw: unknown): string {
  const text = JSON.stringify(raw) ?? String(raw);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
