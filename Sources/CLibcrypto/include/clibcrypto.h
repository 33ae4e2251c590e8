// Non-variadic wrappers over OpenSSL's libcrypto for what APNsCore needs: ES256 (ECDSA P-256 with
// SHA-256) signing of provider tokens, and SHA-256 digests. libcrypto is the one libcurl already links,
// so the client needs no second crypto library. Keys and digest states are opaque pointers.
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

#endif
