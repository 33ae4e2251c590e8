#include "clibcrypto.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <string.h>

// The opaque key is the EVP_PKEY itself.
static EVP_PKEY *pkey(const clibcrypto_p256_key *key) { return (EVP_PKEY *)key; }

// A passphrase callback that supplies none, so that an encrypted PEM fails instead of prompting on the tty.
static int no_passphrase(char *buf, int size, int rwflag, void *u) {
    (void)buf; (void)size; (void)rwflag; (void)u;
    return 0;
}

// What a memory BIO holds, copied into a buffer the caller frees with clibcrypto_free (*out). Returns its
// length, or 0 when the BIO is empty or the copy fails (*out is then left as it was).
static size_t copy_out(BIO *bio, char **out) {
    char *data = NULL;
    long len = BIO_get_mem_data(bio, &data);
    if (len <= 0) return 0;
    char *copy = OPENSSL_malloc((size_t)len);
    if (copy == NULL) return 0;
    memcpy(copy, data, (size_t)len);
    *out = copy;
    return (size_t)len;
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
    size_t result = PEM_write_bio_PrivateKey(bio, pkey(key), NULL, NULL, 0, NULL, NULL) == 1 ? copy_out(bio, out) : 0;
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

// MARK: - ES256 verification

clibcrypto_p256_public *clibcrypto_p256_public_from_x963(const uint8_t *point, size_t length) {
    if (length != 65 || point[0] != 0x04) return NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (ctx == NULL) return NULL;
    EVP_PKEY *k = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, length),
        OSSL_PARAM_construct_end(),
    };
    // Importing decodes the point, which fails when it is not on the curve.
    if (EVP_PKEY_fromdata_init(ctx) != 1 || EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, params) != 1) k = NULL;
    EVP_PKEY_CTX_free(ctx);
    return (clibcrypto_p256_public *)k;
}

void clibcrypto_p256_public_free(clibcrypto_p256_public *key) { EVP_PKEY_free((EVP_PKEY *)key); }

int clibcrypto_p256_verify(const clibcrypto_p256_public *key, const uint8_t *message, size_t length,
                           const uint8_t *signature, size_t signature_length) {
    // Both forms become one DER ECDSA-Sig-Value, which EVP_DigestVerify takes.
    ECDSA_SIG *sig = NULL;
    if (signature_length == 64) {
        BIGNUM *r = BN_bin2bn(signature, 32, NULL), *s = BN_bin2bn(signature + 32, 32, NULL);
        sig = ECDSA_SIG_new();
        if (r == NULL || s == NULL || sig == NULL || ECDSA_SIG_set0(sig, r, s) != 1) {
            BN_free(r); BN_free(s); ECDSA_SIG_free(sig);
            return 0;
        }
    } else {
        const unsigned char *p = signature;
        sig = d2i_ECDSA_SIG(NULL, &p, (long)signature_length);
        if (sig == NULL) return 0;
        if ((size_t)(p - signature) != signature_length) { ECDSA_SIG_free(sig); return 0; }
    }
    unsigned char *der = NULL;
    int der_length = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    if (der_length <= 0) return 0;
    // A DER signature must be the canonical encoding of its (r, s): what it parsed to, encoded again.
    if (signature_length != 64 && ((size_t)der_length != signature_length || memcmp(der, signature, signature_length) != 0)) {
        OPENSSL_free(der);
        return 0;
    }
    int ok = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx != NULL && EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, (EVP_PKEY *)key) == 1) {
        ok = EVP_DigestVerify(ctx, der, (size_t)der_length, message, length) == 1;
    }
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    return ok;
}

// MARK: - Certificates

struct clibcrypto_certificate {
    X509 *x509;
    GENERAL_NAMES *names;
};

clibcrypto_certificate *clibcrypto_certificate_new(const clibcrypto_p256_key *subject_key, const char *organization,
                                                   const char *common_name, int64_t not_before, int64_t not_after) {
    clibcrypto_certificate *c = calloc(1, sizeof *c);
    if (c == NULL) return NULL;
    c->x509 = X509_new();
    c->names = GENERAL_NAMES_new();
    unsigned char serial[20];
    BIGNUM *bn = NULL;
    X509_NAME *name = NULL;
    int ok = c->x509 != NULL && c->names != NULL && RAND_bytes(serial, sizeof serial) == 1;
    if (ok) {
        serial[0] &= 0x7F;  // positive, at most 20 octets encoded
        serial[0] |= 0x40;  // and never zero
        ok = (bn = BN_bin2bn(serial, sizeof serial, NULL)) != NULL &&
             BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c->x509)) != NULL;
    }
    ok = ok && X509_set_version(c->x509, 2) == 1 &&
         ASN1_TIME_set(X509_getm_notBefore(c->x509), (time_t)not_before) != NULL &&
         ASN1_TIME_set(X509_getm_notAfter(c->x509), (time_t)not_after) != NULL &&
         (name = X509_NAME_new()) != NULL &&
         X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, (const unsigned char *)organization, -1, -1, 0) == 1 &&
         X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0) == 1 &&
         X509_set_subject_name(c->x509, name) == 1 &&
         X509_set_pubkey(c->x509, pkey(subject_key)) == 1;
    BN_free(bn);
    X509_NAME_free(name);
    if (!ok) {
        clibcrypto_certificate_free(c);
        return NULL;
    }
    return c;
}

static int add_name(clibcrypto_certificate *c, int type, ASN1_STRING *value) {
    GENERAL_NAME *g = GENERAL_NAME_new();
    if (g == NULL) { ASN1_STRING_free(value); return 0; }
    GENERAL_NAME_set0_value(g, type, value);
    if (sk_GENERAL_NAME_push(c->names, g) <= 0) { GENERAL_NAME_free(g); return 0; }
    return 1;
}

int clibcrypto_certificate_add_dns_name(clibcrypto_certificate *certificate, const char *name) {
    ASN1_IA5STRING *value = ASN1_IA5STRING_new();
    if (value == NULL) return 0;
    if (ASN1_STRING_set(value, name, (int)strlen(name)) != 1) { ASN1_IA5STRING_free(value); return 0; }
    return add_name(certificate, GEN_DNS, value);
}

int clibcrypto_certificate_add_ip_address(clibcrypto_certificate *certificate, const uint8_t *address, size_t length) {
    if (length != 4 && length != 16) return 0;
    ASN1_OCTET_STRING *value = ASN1_OCTET_STRING_new();
    if (value == NULL) return 0;
    if (ASN1_OCTET_STRING_set(value, address, (int)length) != 1) { ASN1_OCTET_STRING_free(value); return 0; }
    return add_name(certificate, GEN_IPADD, value);
}

// Adds one extension written in OpenSSL's configuration syntax (e.g. "critical,CA:TRUE,pathlen:0").
static int add_extension(X509 *x, X509 *issuer, int nid, const char *value) {
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, x, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    if (ext == NULL) return 0;
    int ok = X509_add_ext(x, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

int clibcrypto_certificate_sign_ca(clibcrypto_certificate *certificate, const clibcrypto_p256_key *key) {
    X509 *x = certificate->x509;
    return X509_set_issuer_name(x, X509_get_subject_name(x)) == 1 &&
           add_extension(x, x, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
           add_extension(x, x, NID_key_usage, "critical,digitalSignature,keyCertSign,cRLSign") &&
           add_extension(x, x, NID_subject_key_identifier, "hash") &&
           X509_sign(x, pkey(key), EVP_sha256()) > 0;
}

int clibcrypto_certificate_sign_server(clibcrypto_certificate *certificate, const clibcrypto_certificate *issuer,
                                       const clibcrypto_p256_key *issuer_key) {
    X509 *x = certificate->x509;
    return X509_set_issuer_name(x, X509_get_subject_name(issuer->x509)) == 1 &&
           add_extension(x, issuer->x509, NID_basic_constraints, "critical,CA:FALSE") &&
           add_extension(x, issuer->x509, NID_key_usage, "critical,digitalSignature") &&
           add_extension(x, issuer->x509, NID_ext_key_usage, "serverAuth") &&
           (sk_GENERAL_NAME_num(certificate->names) == 0 ||
            X509_add1_ext_i2d(x, NID_subject_alt_name, certificate->names, 0, X509V3_ADD_DEFAULT) == 1) &&
           add_extension(x, issuer->x509, NID_subject_key_identifier, "hash") &&
           add_extension(x, issuer->x509, NID_authority_key_identifier, "keyid:always") &&
           X509_sign(x, pkey(issuer_key), EVP_sha256()) > 0;
}

size_t clibcrypto_certificate_pem(const clibcrypto_certificate *certificate, char **out) {
    *out = NULL;
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return 0;
    size_t result = PEM_write_bio_X509(bio, certificate->x509) == 1 ? copy_out(bio, out) : 0;
    BIO_free(bio);
    return result;
}

void clibcrypto_certificate_free(clibcrypto_certificate *certificate) {
    if (certificate == NULL) return;
    X509_free(certificate->x509);
    GENERAL_NAMES_free(certificate->names);
    free(certificate);
}
