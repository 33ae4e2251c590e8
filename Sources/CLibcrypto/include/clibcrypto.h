// Non-variadic wrappers over OpenSSL's libcrypto: for APNsCore, ES256 (ECDSA P-256 with SHA-256) signing
// of provider tokens and SHA-256 digests; for APNsSimulator, ES256 verification and the in-process CA and
// server certificate of its TLS. libcrypto is the one libcurl already links, so apnsbench builds no crypto
// library of its own besides the BoringSSL inside swift-nio-ssl. Keys, certificates and digest states are
// opaque pointers.
#ifndef CLIBCRYPTO_H
#define CLIBCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/// A P-256 private key (an OpenSSL EVP_PKEY); free it with clibcrypto_p256_free.
typedef struct clibcrypto_p256_key clibcrypto_p256_key;

/// Why a PEM key was refused.
typedef enum {
    CLIBCRYPTO_KEY_OK = 0,
    CLIBCRYPTO_KEY_NOT_PEM = 1,        // no private key could be read from the PEM (or it needs a passphrase)
    CLIBCRYPTO_KEY_NOT_EC = 2,         // a private key, but not an elliptic-curve one
    CLIBCRYPTO_KEY_NOT_P256 = 3,       // an elliptic-curve key on another curve
} clibcrypto_key_status;

/// Reads a PEM private key (PKCS#8 `BEGIN PRIVATE KEY`, or SEC1 `BEGIN EC PRIVATE KEY`). Never asks for a
/// passphrase: an encrypted key is refused. Returns NULL and sets *status when the key is not P-256.
clibcrypto_p256_key *clibcrypto_p256_from_pem(const char *pem, size_t length, clibcrypto_key_status *status);
/// A fresh random P-256 key; NULL only when the library fails.
clibcrypto_p256_key *clibcrypto_p256_generate(void);
void clibcrypto_p256_free(clibcrypto_p256_key *key);
/// The public key as an uncompressed point (0x04 ‖ X ‖ Y, 65 bytes). Returns 1 on success.
int clibcrypto_p256_public_x963(const clibcrypto_p256_key *key, uint8_t out[65]);
/// The private key as PKCS#8 PEM, in a buffer the caller frees with clibcrypto_free. Returns its length, or
/// 0 on failure (then *out is NULL).
size_t clibcrypto_p256_pkcs8_pem(const clibcrypto_p256_key *key, char **out);
/// ECDSA over SHA-256 of `message`, written as the raw r ‖ s (32 + 32 bytes) that JWS ES256 uses.
/// Returns 1 on success.
int clibcrypto_p256_sign(const clibcrypto_p256_key *key, const uint8_t *message, size_t length, uint8_t out[64]);

/// A running SHA-256; free it with clibcrypto_sha256_free.
typedef struct clibcrypto_sha256 clibcrypto_sha256;
clibcrypto_sha256 *clibcrypto_sha256_new(void);
int clibcrypto_sha256_update(clibcrypto_sha256 *state, const void *data, size_t length);
/// Writes the 32-byte digest. Returns 1 on success. The state cannot be updated afterwards.
int clibcrypto_sha256_final(clibcrypto_sha256 *state, uint8_t out[32]);
void clibcrypto_sha256_free(clibcrypto_sha256 *state);

void clibcrypto_free(void *pointer);

/// A P-256 public key (an OpenSSL EVP_PKEY holding only the point); free it with clibcrypto_p256_public_free.
typedef struct clibcrypto_p256_public clibcrypto_p256_public;
/// Reads an uncompressed point (0x04 ‖ X ‖ Y, 65 bytes). NULL when it is not a point on P-256.
clibcrypto_p256_public *clibcrypto_p256_public_from_x963(const uint8_t *point, size_t length);
void clibcrypto_p256_public_free(clibcrypto_p256_public *key);
/// Checks an ECDSA signature over SHA-256 of `message`. The signature is either the raw r ‖ s of JWS ES256
/// (exactly 64 bytes) or a DER ECDSA-Sig-Value (strict DER: canonical, nothing after it). Returns 1 when it
/// verifies, 0 otherwise (a malformed signature included).
int clibcrypto_p256_verify(const clibcrypto_p256_public *key, const uint8_t *message, size_t length,
                           const uint8_t *signature, size_t signature_length);

/// An X.509 v3 certificate being made, then made (an OpenSSL X509 and the subject alternative names added
/// so far); free it with clibcrypto_certificate_free.
typedef struct clibcrypto_certificate clibcrypto_certificate;
/// Starts a certificate of `subject_key`: a random serial number of 20 octets (positive), the subject
/// O=`organization`, CN=`common_name` (in that order), valid from `not_before` to `not_after` (seconds
/// since 1970). NULL only when the library fails.
clibcrypto_certificate *clibcrypto_certificate_new(const clibcrypto_p256_key *subject_key, const char *organization,
                                                   const char *common_name, int64_t not_before, int64_t not_after);
/// Adds a DNS name to the subject alternative names (used by clibcrypto_certificate_sign_server).
int clibcrypto_certificate_add_dns_name(clibcrypto_certificate *certificate, const char *name);
/// Adds an IP address (4 or 16 bytes) to the subject alternative names.
int clibcrypto_certificate_add_ip_address(clibcrypto_certificate *certificate, const uint8_t *address, size_t length);
/// Makes it a self-signed CA and signs it with `key` (its own; ECDSA with SHA-256). Extensions, in order:
/// basic constraints (critical, CA, path length 0), key usage (critical: digital signature, certificate
/// signing, CRL signing), subject key identifier. Returns 1 on success.
int clibcrypto_certificate_sign_ca(clibcrypto_certificate *certificate, const clibcrypto_p256_key *key);
/// Makes it a TLS server certificate issued by `issuer` and signs it with `issuer_key` (ECDSA with SHA-256).
/// Extensions, in order: basic constraints (critical, not a CA), key usage (critical: digital signature),
/// extended key usage (server authentication), the subject alternative names added, subject key
/// identifier, authority key identifier (the issuer's subject key identifier). Returns 1 on success.
int clibcrypto_certificate_sign_server(clibcrypto_certificate *certificate, const clibcrypto_certificate *issuer,
                                       const clibcrypto_p256_key *issuer_key);
/// The certificate as PEM (`BEGIN CERTIFICATE`), in a buffer the caller frees with clibcrypto_free. Returns its
/// length, or 0 on failure (then *out is NULL).
size_t clibcrypto_certificate_pem(const clibcrypto_certificate *certificate, char **out);
void clibcrypto_certificate_free(clibcrypto_certificate *certificate);

#endif
