/**
 * Certificates made by a test, for the stores' TLS: a CA of its own and a server certificate it signs, for
 * `localhost` and 127.0.0.1 only, made with the `openssl` program (Debian's `openssl` package).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OPENSSL = '/usr/bin/openssl';

/** Why certificates cannot be made here, or undefined when they can. */
export function opensslMissing(): string | undefined {
  return existsSync(OPENSSL) ? undefined : `openssl is not installed at ${OPENSSL} (apt-get install openssl)`;
}

export interface TestCertificates {
  /** The CA's certificate (PEM): what a client names to trust the server. */
  ca: string;
  /** The server's certificate (PEM), signed by the CA, for DNS:localhost and IP:127.0.0.1. */
  cert: string;
  /** The server certificate's private key (PEM, unencrypted). */
  key: string;
  /** Another CA's certificate, which signed nothing here: trusting it, a client must refuse the server. */
  otherCa: string;
  remove(): void;
}

/** Makes the CAs and the server certificate in a new temporary folder (P-256 keys: quick to make). */
export function makeTestCertificates(): TestCertificates {
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-tls-'));
  const file = (name: string) => join(folder, name);
  const openssl = (...args: string[]) => execFileSync(OPENSSL, args, { stdio: 'pipe' });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const makeCa = (name: string) =>
    openssl(
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.pem`),
      '-days',
      '2',
      '-subj',
      `/CN=Switchboard test ${name}`,
    );
  try {
    makeCa('ca');
    makeCa('other-ca');
    openssl('req', ...newKey, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost');
    writeFileSync(file('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    );
  } catch (err) {
    rmSync(folder, { recursive: true, force: true });
    throw err;
  }
  return {
    ca: file('ca.pem'),
    cert: file('server.pem'),
    key: file('server.key'),
    otherCa: file('other-ca.pem'),
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
