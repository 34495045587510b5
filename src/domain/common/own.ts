/**
 * A record's own value for a key the client chose. `record[key]` also finds what every object
 * inherits: `constructor`, `toString`, `hasOwnProperty` are functions there, so an attribute or a
 * label named "constructor" turned into a function where a definition was expected (a 500).
 */
export const own = <T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
