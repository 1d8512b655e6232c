/**
 * A launcher for moto_server that honours KMS Sign's MessageType=DIGEST. moto 5.2 reads the
 * parameter and ignores it, hashing the digest again (getmoto/moto PR #10202, open at the time of
 * writing), so a DIGEST signature verifies against hash(digest) instead of the digest, unlike AWS.
 * AWS KMS signs the digest as given (API_Sign.html), which is what the AWS_KMS provider relies on
 * (Ethereum transactions are signed over a keccak-256 digest that KMS cannot compute). The launcher
 * patches only that: ECDSA and RSA PKCS#1 v1.5 signing of a DIGEST use cryptography's Prehashed,
 * and the digest length is checked as AWS does. Everything else is moto as installed.
 */
export const MOTO_KMS_DIGEST_LAUNCHER = `
import sys, threading
from cryptography.hazmat.primitives.asymmetric import ec, padding, utils
from moto.kms import responses, utils as kms_utils
from moto.kms.exceptions import ValidationException

state = threading.local()
original_sign = responses.KmsResponse.sign

def sign(self):
    state.digest = self._get_param("MessageType") == "DIGEST"
    try:
        return original_sign(self)
    finally:
        state.digest = False

def prehashed(message, algorithm):
    if len(message) != algorithm.digest_size:
        raise ValidationException("Digest is invalid length for algorithm " + algorithm.name)
    return utils.Prehashed(algorithm)

def ec_sign(self, message, signing_algorithm):
    kms_utils.validate_signing_algorithm(signing_algorithm, self.valid_signing_algorithms)
    algorithm = self._ECDSAPrivateKey__hash_algorithm(signing_algorithm)
    if getattr(state, "digest", False):
        algorithm = prehashed(message, algorithm)
    return self.private_key.sign(message, ec.ECDSA(algorithm))

def rsa_sign(self, message, signing_algorithm):
    kms_utils.validate_signing_algorithm(signing_algorithm, kms_utils.SigningAlgorithm.rsa_signing_algorithms())
    pad, algorithm = self._RSAPrivateKey__padding_and_hash_algorithm(signing_algorithm)
    if getattr(state, "digest", False):
        algorithm = prehashed(message, algorithm)
    return self.private_key.sign(message, pad, algorithm)

responses.KmsResponse.sign = sign
kms_utils.ECDSAPrivateKey.sign = ec_sign
kms_utils.RSAPrivateKey.sign = rsa_sign

from moto.server import main
main(sys.argv[1:])
`;
