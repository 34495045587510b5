import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import forge from 'node-forge';
import { withFileLock } from './file-lock.js';

/**
 * --tls: the certificate the server presents, signed by a CA of its own that is made once and kept (in
 * --tls-dir, else <data-dir>/tls, else ~/.labelmock/tls) so a client trusts it across restarts. The X.509
 * structures are node-forge's; the RSA keys come from Node's crypto (native, fast).
 */

export interface TlsMaterial {
  cert: string;
  key: string;
  /** The CA's certificate (PEM): what a client is told to trust; null for a certificate the user gave. */
  caPem: string | null;
  /** Where the CA's certificate lies on disk, for the banner; null for a certificate the user gave. */
  caFile: string | null;
}

const CA_CERT = 'ca.pem';
const CA_KEY = 'ca-key.pem';
const SERVER_CERT = 'server.pem';
const SERVER_KEY = 'server-key.pem';
const DAY_MS = 86_400_000;
/** Browsers refuse leaf certificates valid for more than 398 days. */
const SERVER_DAYS = 397;
const CA_YEARS = 10;
/** A kept server certificate this close to its end is made anew. */
const RENEW_BEFORE_DAYS = 30;

/** The names every server certificate carries: the loopback ones a local client uses. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

function rsaKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { key: privateKey, publicKey: forge.pki.publicKeyFromPem(publicKey), privateKey };
}

function baseCertificate(publicKey: forge.pki.PublicKey, days: number, now: Date): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // Positive and unique: 16 random bytes with the top bit cleared.
  cert.serialNumber = `0${randomBytes(16).toString('hex').slice(1)}`;
  cert.validity.notBefore = new Date(now.getTime() - DAY_MS);
  cert.validity.notAfter = new Date(now.getTime() + days * DAY_MS);
  return cert;
}

function makeCa(now: Date): { cert: string; key: string } {
  const keys = rsaKeys();
  const cert = baseCertificate(keys.publicKey, CA_YEARS * 365, now);
  const subject = [
    { name: 'commonName', value: 'labelmock local CA' },
    { name: 'organizationName', value: 'labelmock' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true, pathLenConstraint: 0 },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keys.privateKey) as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keys.key };
}

const altName = (name: string) => (isIP(name) ? { type: 7, ip: name } : { type: 2, value: name });

function makeServerCertificate(ca: { cert: string; key: string }, names: string[], now: Date) {
  const caCert = forge.pki.certificateFromPem(ca.cert);
  const keys = rsaKeys();
  const cert = baseCertificate(keys.publicKey, SERVER_DAYS, now);
  cert.setSubject([{ name: 'commonName', value: names[0] ?? 'localhost' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map(altName) },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(ca.key) as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keys.key };
}

/** The names a kept server certificate covers, and whether it is still good for a while. */
function keptServerFits(certPem: string, caPem: string, names: string[], now: Date): boolean {
  const cert = forge.pki.certificateFromPem(certPem);
  if (cert.validity.notAfter.getTime() - now.getTime() < RENEW_BEFORE_DAYS * DAY_MS) return false;
  if (!forge.pki.certificateFromPem(caPem).verify(cert)) return false;
  const ext = cert.getExtension('subjectAltName') as { altNames?: { ip?: string; value?: string }[] } | undefined;
  const covered = new Set((ext?.altNames ?? []).map((entry) => entry.ip ?? entry.value ?? ''));
  return names.every((name) => covered.has(name));
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
/** Keys are secrets: readable by their owner only. */
const write = (dir: string, file: string, text: string, secret = false) =>
  writeFileSync(join(dir, file), text, { mode: secret ? 0o600 : 0o644 });

/**
 * The CA and server certificate kept in `dir`, made where missing: the CA once (a client that trusts it keeps
 * trusting the server), the server certificate again when it lacks one of `names` or nears its end.
 */
export function tlsFromDir(dir: string, extraNames: readonly string[] = [], now = new Date()): TlsMaterial {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Servers started together on an empty folder (xdist workers, compose services) make one CA, not one each.
  return withFileLock(join(dir, '.lock'), () => tlsInDir(dir, extraNames, now));
}

function tlsInDir(dir: string, extraNames: readonly string[], now: Date): TlsMaterial {
  const names = [...new Set([...LOOPBACK_NAMES, ...extraNames.filter((name) => name !== '*')])];
  let ca: { cert: string; key: string };
  let freshCa = false;
  if (existsSync(join(dir, CA_CERT)) && existsSync(join(dir, CA_KEY))) {
    ca = { cert: read(dir, CA_CERT), key: read(dir, CA_KEY) };
  } else {
    ca = makeCa(now);
    freshCa = true;
    write(dir, CA_KEY, ca.key, true);
    write(dir, CA_CERT, ca.cert);
  }
  const kept = existsSync(join(dir, SERVER_CERT)) && existsSync(join(dir, SERVER_KEY));
  let server: { cert: string; key: string };
  if (!freshCa && kept && keptServerFits(read(dir, SERVER_CERT), ca.cert, names, now)) {
    server = { cert: read(dir, SERVER_CERT), key: read(dir, SERVER_KEY) };
  } else {
    server = makeServerCertificate(ca, names, now);
    write(dir, SERVER_KEY, server.key, true);
    write(dir, SERVER_CERT, server.cert);
  }
  // The chain: a client that trusts the CA needs only the server's certificate, but sending both costs nothing.
  return { cert: server.cert, key: server.key, caPem: ca.cert, caFile: join(dir, CA_CERT) };
}

/** --tls-cert and --tls-key: the user's own certificate (and its chain), used as given. */
export function tlsFromFiles(certFile: string, keyFile: string): TlsMaterial {
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), caPem: null, caFile: null };
}
