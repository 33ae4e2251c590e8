#include "clibcrypto.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <string.h>

// The opaque key is the EVP_PKEY itself.
static EVP_PKEY *pkey(const clibcrypto_p256_key *key) { return (EVP_PKEY *)key; }

// A passphrase callback that supplies none, so that an encrypted PEM fails instead of prompting on the tty.
static int no_passphrase(char *buf, int size, int rwflag, void *u) {
    (void)buf; (void)size; (void)rwflag; (void)u;
    return 0;
}

static int is_p256(EVP_PKEY *k) {
    char group[64];
    size_t len = 0;
    if (EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &len) != 1) return 0;
    return strcmp(group, "prime256v1") == 0 || strcmp(group, "P-256") == 0;
}

clibcrypto_p256_key *clibcrypto_p256_from_pem(const char *pem, size_t length, clibcrypto_key_status *status) {
    *status = CLIBCRYPTO_KEY_NOT_PEM;
    if (length > 1 << 20) return NULL;
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) return NULL;
    EVP_PKEY *k = PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL);
    BIO_free(bio);
    if (k == NULL) return NULL;
    if (!EVP_PKEY_is_a(k, "EC")) {
        *status = CLIBCRYPTO_KEY_NOT_EC;
        EVP_PKEY_free(k);
        return NULL;
    }
    if (!is_p256(k)) {
        *status = CLIBCRYPTO_KEY_NOT_P256;
        EVP_PKEY_free(k);
        return NULL;
    }
    *status = CLIBCRYPTO_KEY_OK;
    return (clibcrypto_p256_key *)k;
}

clibcrypto_p256_key *clibcrypto_p256_generate(void) {
    return (clibcrypto_p256_key *)EVP_EC_gen("P-256");
}

void clibcrypto_p256_free(clibcrypto_p256_key *key) { EVP_PKEY_free(pkey(key)); }

int clibcrypto_p256_public_x963(const clibcrypto_p256_key *key, uint8_t out[65]) {
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(pkey(key), OSSL_PKEY_PARAM_PUB_KEY, out, 65, &len) != 1) return 0;
    return len == 65 && out[0] == 0x04;
}

size_t clibcrypto_p256_pkcs8_pem(const clibcrypto_p256_key *key, char **out) {
    *out = NULL;
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return 0;
    size_t result = 0;
    if (PEM_write_bio_PrivateKey(bio, pkey(key), NULL, NULL, 0, NULL, NULL) == 1) {
        char *data = NULL;
        long len = BIO_get_mem_data(bio, &data);
        if (len > 0 && (*out = OPENSSL_malloc((size_t)len)) != NULL) {
            memcpy(*out, data, (size_t)len);
            result = (size_t)len;
        }
    }
    BIO_free(bio);
    return result;
}

int clibcrypto_p256_sign(const clibcrypto_p256_key *key, const uint8_t *message, size_t length, uint8_t out[64]) {
    int ok = 0;
    unsigned char der[80];
    size_t der_len = sizeof der;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return 0;
    if (EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, pkey(key)) == 1 &&
        EVP_DigestSign(ctx, der, &der_len, message, length) == 1) {
        const unsigned char *p = der;
        ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
        if (sig != NULL) {
            const BIGNUM *r = NULL, *s = NULL;
            ECDSA_SIG_get0(sig, &r, &s);
            ok = BN_bn2binpad(r, out, 32) == 32 && BN_bn2binpad(s, out + 32, 32) == 32;
            ECDSA_SIG_free(sig);
        }
    }
    EVP_MD_CTX_free(ctx);
    return ok;
}

clibcrypto_sha256 *clibcrypto_sha256_new(void) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return NULL;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        return NULL;
    }
    return (clibcrypto_sha256 *)ctx;
}

int clibcrypto_sha256_update(clibcrypto_sha256 *state, const void *data, size_t length) {
    return EVP_DigestUpdate((EVP_MD_CTX *)state, data, length);
}

int clibcrypto_sha256_final(clibcrypto_sha256 *state, uint8_t out[32]) {
    unsigned int len = 0;
    return EVP_DigestFinal_ex((EVP_MD_CTX *)state, out, &len) == 1 && len == 32;
}

void clibcrypto_sha256_free(clibcrypto_sha256 *state) { EVP_MD_CTX_free((EVP_MD_CTX *)state); }

void clibcrypto_free(void *pointer) { OPENSSL_free(pointer); }
