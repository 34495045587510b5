import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/index.js';

describe('config: delivery, journal and shutdown limits', () => {
  it('defaults to 64 callbacks in flight, 1000 journal entries per tenant, a 5 s shutdown deadline', () => {
    const config = readConfig([], {});
    expect([config.maxCallbacksInFlight, config.callbackJournalSize, config.shutdownTimeoutMs]).toEqual([
      64, 1000, 5000,
    ]);
  });

  it('reads --max-callbacks-in-flight, --callback-journal-size, --shutdown-timeout, else the environment', () => {
    const flags = readConfig(
      ['--max-callbacks-in-flight', '8', '--callback-journal-size', '50', '--shutdown-timeout', '250'],
      {},
    );
    expect([flags.maxCallbacksInFlight, flags.callbackJournalSize, flags.shutdownTimeoutMs]).toEqual([8, 50, 250]);
    const env = readConfig([], {
      LABELMOCK_MAX_CALLBACKS_IN_FLIGHT: '3',
      LABELMOCK_CALLBACK_JOURNAL_SIZE: '7',
      LABELMOCK_SHUTDOWN_TIMEOUT: '0',
    });
    expect([env.maxCallbacksInFlight, env.callbackJournalSize, env.shutdownTimeoutMs]).toEqual([3, 7, 0]);
  });

  it('rejects a zero or fractional callback limit and a negative deadline', () => {
    expect(() => readConfig(['--max-callbacks-in-flight', '0'], {})).toThrow();
    expect(() => readConfig(['--callback-journal-size', '1.5'], {})).toThrow();
    expect(() => readConfig(['--shutdown-timeout', '-1'], {})).toThrow();
  });
});
