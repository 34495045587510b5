// Keeps package-lock.json installable by `npm ci` on this project's machines.
//
// Why: the npm registry these machines reach mirrors only some platform builds of packages that
// ship native binaries as optional dependencies (Biome's @biomejs/cli-darwin-x64 and friends are
// absent: 404). `npm install` then leaves those entries out of the lock, and `npm ci` refuses the
// lock ("Missing: @biomejs/cli-darwin-x64@ from lock file"). An entry naming the package's os/cpu is
// all `npm ci` needs: it skips optional packages for other platforms without fetching them.
//
//   node scripts/lock-platforms.mjs          add the missing entries (run after any npm install)
//   node scripts/lock-platforms.mjs --check  exit 1 when some are missing (part of npm run lint)
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

// Operating systems, CPUs and ABI suffixes of the platform packages the lock holds (Biome's cli-*, the
// binding-* of oxc-parser, which knip uses), e.g. cli-linux-x64-musl, binding-linux-arm-musleabihf.
const OS = 'android|darwin|linux|win32|freebsd|openbsd|netbsd|sunos|aix|openharmony';
const CPU = 'arm64|x64|ia32|arm|ppc64|s390x|riscv64';
const ABI = 'musl|gnu|msvc|eabi|gnueabihf|musleabihf';
const PLATFORM = new RegExp(`-(${OS})-(${CPU})(-(?:${ABI}))?$`);

/** os, cpu and libc from a platform package's name, e.g. cli-linux-x64-musl. */
function platformOf(name) {
  const match = PLATFORM.exec(name);
  if (!match) return undefined;
  const [, os, cpu, abi] = match;
  const libc = abi?.startsWith('-musl') ? 'musl' : 'glibc';
  return { os: [os], cpu: [cpu], ...(os === 'linux' && { libc: [libc] }) };
}

const missing = [];
for (const entry of Object.values(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const platform = platformOf(name);
    if (packages[key] || !platform) continue;
    missing.push(name);
    packages[key] = { version, ...(entry.dev && { dev: true }), optional: true, ...platform };
  }
}

if (process.argv.includes('--check')) {
  if (missing.length > 0) {
    console.error(
      `package-lock.json lacks ${missing.length} platform package(s) npm ci needs (${missing.join(', ')}).`,
    );
    console.error('Run: node scripts/lock-platforms.mjs');
    process.exit(1);
  }
} else if (missing.length > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
  );
  writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`added ${missing.length} platform package(s) to package-lock.json: ${missing.join(', ')}`);
}
