/**
 * What each generator's scenario (`<generator>/scenario.ts`) answers test/generated-clients.test.ts.
 * `Type` is the generated client's own type of a created task's `type`, so that it must be the literal.
 */
export interface Outcome<Type extends string> {
  createdType: Type;
  listed: string[];
  pages: number;
  completedLabels: string[];
  attachment: string;
  errorStatus: number;
  errorMessage: string;
  flagged: boolean;
}
