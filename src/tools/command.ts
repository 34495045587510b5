import { Command, CommanderError } from 'commander';

/** Where a tool writes: the process's streams, or a test's buffers. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A tool's command (`labelmock record`, `labelmock drift`): it throws instead of exiting, and writes to `io`. */
export const toolCommand = (name: string, io: Io): Command =>
  new Command(name).exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => {} });

/**
 * Parses argv with the tool's command: the command with its flags read, or the exit code when there is nothing to
 * run (0 after --help; 2 after a bad flag, said in one line on stderr).
 */
export function parseTool(program: Command, argv: readonly string[], io: Io): Command | number {
  try {
    program.parse([...argv], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed') return 0;
    io.stderr(`${program.name()}: ${err.message.replace(/^error: /, '')}\n`);
    return 2;
  }
  return program;
}
