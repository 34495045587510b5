/**
 * Mutation check of the contract kit: does the suite notice when one interface rule breaks?
 *
 *   npx tsx scripts/mutants.ts                      every mutant of scripts/mutants/list.ts
 *   npx tsx scripts/mutants.ts --only a,b           the named ones (--only may repeat)
 *   npx tsx scripts/mutants.ts --check              only checks that every patch still applies
 *
 * Copies the repo to a scratch folder, runs the in-process contracts there unmutated (they must all
 * pass), then once per mutant with its patch applied. A mutant counts as detected when at least one
 * contract of its tag fails: `interface` (the contracts meant to hold any implementation, so a rule only a
 * `labelmock` contract notices is a rule another implementation could break unseen), or `client` for the
 * mutants of the v2 API, `labelmock` for its readings of the real service's recordings.
 * Prints a table and "N of M detected"; exits 1 when the sanity run fails or a patch does not apply.
 */
import { fileURLToPath } from 'node:url';
import { MUTANTS, type Mutant } from './mutants/list.js';
import { type RunResult, runContracts } from './mutants/run.js';
import { applyMutant, makeScratch } from './mutants/scratch.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRATCH = '/tmp/labelmock-mutant';

function parseArgs(argv: string[]): { only: string[]; check: boolean } {
  const only: string[] = [];
  let check = false;
  const rest = [...argv];
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    const names = arg === '--only' ? rest.shift() : arg.startsWith('--only=') ? arg.slice('--only='.length) : undefined;
    if (arg === '--check') check = true;
    else if (names !== undefined) only.push(...names.split(',').filter(Boolean));
    else throw new Error(`unknown argument ${arg}; usage: scripts/mutants.ts [--only name[,name]] [--check]`);
  }
  const unknown = only.filter((name) => !MUTANTS.some((m) => m.name === name));
  if (unknown.length > 0) throw new Error(`no mutant named ${unknown.join(', ')}`);
  return { only, check };
}

/** The failed contracts of the mutant's tag (interface, or client for the v2 API) whose own rules broke. */
const ownFailures = (mutant: Mutant, result: RunResult) =>
  result.failed.filter((test) => test.tags.includes(mutant.tag ?? 'interface') && test.ownRuleBroken);

/** A contract's name without its tags, cut for the table. */
const short = (title: string) => {
  const name = title.replace(/ \[[a-z,]+\]$/, '');
  return name.length > 70 ? `${name.slice(0, 67)}...` : name;
};

function row(mutant: Mutant, result: RunResult): string {
  const caught = ownFailures(mutant, result);
  const detected = result.problem ? `error: ${result.problem}` : caught.length > 0 ? 'yes' : 'no';
  // Interface failures first; a mutant only labelmock contracts notice still shows which ones did.
  const shown = [...caught, ...result.failed.filter((test) => !caught.includes(test))].slice(0, 3);
  const names = shown.map((test) => short(test.title)).join('; ') || '-';
  return `| ${mutant.name} | ${mutant.rule} | ${detected} | ${result.failed.length} | ${names} |`;
}

async function main(): Promise<void> {
  const { only, check } = parseArgs(process.argv.slice(2));
  const chosen = only.length > 0 ? MUTANTS.filter((m) => only.includes(m.name)) : MUTANTS;
  const started = Date.now();
  makeScratch(ROOT, SCRATCH);

  if (check) {
    // applyMutant throws on a patch that does not apply; undo each before the next.
    for (const mutant of chosen) applyMutant(SCRATCH, mutant)();
    console.log(`${chosen.length} patches apply`);
    return;
  }

  const sane = await runContracts(SCRATCH);
  if (sane.problem || sane.failed.length > 0 || sane.total === 0) {
    const names = sane.failed.map((test) => test.title).join('\n  ');
    throw new Error(`the unmutated copy does not pass: ${sane.problem ?? ''}\n  ${names}`);
  }
  console.log(`unmutated: ${sane.total} tests passed in ${sane.seconds} s`);

  const rows: string[] = [];
  let detected = 0;
  for (const mutant of chosen) {
    const undo = applyMutant(SCRATCH, mutant);
    let result: RunResult;
    try {
      result = await runContracts(SCRATCH);
    } finally {
      undo();
    }
    if (!result.problem && ownFailures(mutant, result).length > 0) detected += 1;
    rows.push(row(mutant, result));
    console.log(`${rows.length}/${chosen.length} ${mutant.name}: ${result.seconds} s`);
  }

  console.log('\n| mutant | rule broken | detected | failed tests | failed (first 3) |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const line of rows) console.log(line);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const by = 'by a contract of its tag: interface, client, recorded or labelmock';
  console.log(`\n${detected} of ${chosen.length} detected (${by}), ${minutes} min`);
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
