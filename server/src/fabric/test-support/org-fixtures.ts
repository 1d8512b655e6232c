import { createSelfSignedCertificate, issueCertificate, type Issuer } from "../../crypto/certificates.js";
import { generateKeyPair, privateKeyToPem } from "../../crypto/key-algorithms.js";
import { localSigner } from "../../crypto/signer.js";

/** A certificate and its PKCS#8 key, PEM. */
export interface CertPair {
  certPem: string;
  keyPem: string;
}

/** Test crypto for one organization: a sign CA, a TLS CA, and helpers to issue from them. */
export interface TestOrg {
  mspId: string;
  ca: Issuer;
  tlsCa: Issuer;
  /** An identity cert (NodeOU in the OU) from the sign CA. */
  identity(cn: string, ou: "peer" | "orderer" | "admin" | "client"): Promise<CertPair>;
  /** A TLS server+client cert from the TLS CA with SANs localhost, 127.0.0.1 and cn. */
  tls(cn: string): Promise<CertPair>;
}

const days = (n: number): Date => new Date(Date.now() + n * 86_400_000);

async function makeCa(cn: string, org: string): Promise<Issuer> {
  const kp = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
  const signer = localSigner(kp.privateKey);
  const ca = await createSelfSignedCertificate({
    signer,
    subject: { commonName: cn, organization: [org] },
    validity: { notAfter: days(365) },
  });
  return { certificatePem: ca.pem, signer };
}

/** Creates a test organization with fresh P-256 CAs (domain e.g. "org1.example.com"). */
export async function createTestOrg(mspId: string, domain: string): Promise<TestOrg> {
  const ca = await makeCa(`ca.${domain}`, mspId);
  const tlsCa = await makeCa(`tlsca.${domain}`, mspId);
  const issue = async (issuer: Issuer, cn: string, ou: string | undefined, tls: boolean): Promise<CertPair> => {
    const kp = await generateKeyPair({ algorithm: "EC", curve: "P-256" });
    const cert = await issueCertificate({
      issuer,
      publicKey: kp.publicKey,
      subject: { commonName: cn, organization: [mspId], ...(ou ? { organizationalUnit: [ou] } : {}) },
      validity: { notAfter: days(30) },
      ...(tls
        ? {
            sans: { dnsNames: ["localhost", cn], ipAddresses: ["127.0.0.1"] },
            extKeyUsage: ["serverAuth", "clientAuth"],
          }
        : {}),
    });
    return { certPem: cert.pem, keyPem: privateKeyToPem(kp.privateKey) };
  };
  return {
    mspId,
    ca,
    tlsCa,
    identity: (cn, ou) => issue(ca, cn, ou, false),
    tls: (cn) => issue(tlsCa, cn, undefined, true),
  };
}
