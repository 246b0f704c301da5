/**
 * A small X.509 hierarchy for card-signature tests (decision 0166), made at run time with the
 * `openssl` command line (node:crypto reads certificates but cannot issue them; Debian and CI have
 * openssl). Every key is EC P-256 (ES256). Made once per test file, in a temporary folder:
 *
 *   root ── intermediate (CA, pathlen 0) ── leaf             the good chain
 *        │                               ├─ expiredLeaf      valid 2020-01-01 to 2020-01-02
 *        │                               └─ noSignLeaf       keyUsage keyAgreement only
 *        └─ notCa (CA:FALSE) ── underNotCa                   an issuer that is no CA
 *   otherRoot ── strangerLeaf                                a chain to a root nobody configured
 *
 * and `serverLeaf` under the intermediate: a TLS server certificate for 127.0.0.1 and localhost,
 * which no client trusts unless told to (the CLI's --insecure tests).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One certificate with its private key. */
export interface Issued {
  /** Certificate, PEM. */
  pem: string;
  /** Private key, PKCS#8 PEM. */
  keyPem: string;
  /** The certificate as an x5c entry: base64 DER. */
  der64: string;
}

/** The hierarchy above; `x5c(...)` builds a header chain from certificates, signing one first. */
export interface TestPki {
  root: Issued;
  otherRoot: Issued;
  intermediate: Issued;
  leaf: Issued;
  expiredLeaf: Issued;
  noSignLeaf: Issued;
  notCa: Issued;
  underNotCa: Issued;
  strangerLeaf: Issued;
  /** A TLS server certificate for 127.0.0.1 and localhost, under `intermediate`. */
  serverLeaf: Issued;
  x5c(...chain: Issued[]): string[];
  /** Removes the temporary folder. */
  dispose(): void;
}

const EXTENSIONS = `
[req]
distinguished_name = dn
[dn]
[ca]
basicConstraints=critical,CA:TRUE
keyUsage=critical,keyCertSign,cRLSign
[intermediate]
basicConstraints=critical,CA:TRUE,pathlen:0
keyUsage=critical,keyCertSign,cRLSign
[notca]
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyCertSign
[leaf]
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
[nosign]
basicConstraints=critical,CA:FALSE
keyUsage=critical,keyAgreement
[server]
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost
`;

/** Makes the hierarchy; throws when `openssl` is missing (the tests need it, as CI has it). */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'concord-pki-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  writeFileSync(file('ext.cnf'), EXTENSIONS);
  let serial = 1;
  const key = (name: string): void =>
    openssl(
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-out',
      file(`${name}.key`),
    );
  const read = (name: string): Issued => {
    const pem = readFileSync(file(`${name}.pem`), 'utf8');
    const der64 = pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    return { pem, keyPem: readFileSync(file(`${name}.key`), 'utf8'), der64 };
  };
  const selfSigned = (name: string, subject: string): Issued => {
    key(name);
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      file(`${name}.key`),
      '-subj',
      subject,
      '-days',
      '3',
      '-sha256',
      '-config',
      file('ext.cnf'),
      '-extensions',
      'ca',
      '-out',
      file(`${name}.pem`),
    );
    return read(name);
  };
  const issue = (name: string, subject: string, issuer: string, section: string): Issued => {
    key(name);
    openssl(
      'req',
      '-new',
      '-key',
      file(`${name}.key`),
      '-subj',
      subject,
      '-config',
      file('ext.cnf'),
      '-out',
      file(`${name}.csr`),
    );
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file(`${issuer}.pem`),
      '-CAkey',
      file(`${issuer}.key`),
      '-set_serial',
      String(++serial),
      '-days',
      '2',
      '-sha256',
      '-extfile',
      file('ext.cnf'),
      '-extensions',
      section,
      '-out',
      file(`${name}.pem`),
    );
    return read(name);
  };
  // `openssl x509` always starts a certificate now; `openssl ca` takes explicit dates.
  const expired = (name: string, subject: string, issuer: string): Issued => {
    key(name);
    openssl(
      'req',
      '-new',
      '-key',
      file(`${name}.key`),
      '-subj',
      subject,
      '-config',
      file('ext.cnf'),
      '-out',
      file(`${name}.csr`),
    );
    writeFileSync(file('index.txt'), '');
    writeFileSync(file('serial'), '1000\n');
    writeFileSync(
      file('ca.cnf'),
      `[ca]\ndefault_ca = test\n[test]\ndatabase = ${file('index.txt')}\nnew_certs_dir = ${dir}\n` +
        `serial = ${file('serial')}\ndefault_md = sha256\npolicy = any\nunique_subject = no\n` +
        `[any]\ncommonName = supplied\n${EXTENSIONS}`,
    );
    openssl(
      'ca',
      '-batch',
      '-config',
      file('ca.cnf'),
      '-cert',
      file(`${issuer}.pem`),
      '-keyfile',
      file(`${issuer}.key`),
      '-in',
      file(`${name}.csr`),
      '-out',
      file(`${name}.pem`),
      '-startdate',
      '20200101000000Z',
      '-enddate',
      '20200102000000Z',
      '-extensions',
      'leaf',
      '-notext',
    );
    return read(name);
  };
  const root = selfSigned('root', '/O=Concord Tests/CN=Concord Test Root');
  const otherRoot = selfSigned('other-root', '/O=Someone Else/CN=Other Root');
  return {
    root,
    otherRoot,
    intermediate: issue('intermediate', '/CN=Concord Test Intermediate', 'root', 'intermediate'),
    leaf: issue('leaf', '/CN=cards.concord.test', 'intermediate', 'leaf'),
    expiredLeaf: expired('expired-leaf', '/CN=expired.concord.test', 'intermediate'),
    noSignLeaf: issue('nosign-leaf', '/CN=nosign.concord.test', 'intermediate', 'nosign'),
    notCa: issue('not-ca', '/CN=Not A CA', 'root', 'notca'),
    underNotCa: issue('under-not-ca', '/CN=under.concord.test', 'not-ca', 'leaf'),
    strangerLeaf: issue('stranger-leaf', '/CN=stranger.example', 'other-root', 'leaf'),
    serverLeaf: issue('server-leaf', '/CN=localhost', 'intermediate', 'server'),
    x5c: (...chain) => chain.map((c) => c.der64),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
