#include "lw-dtls-certificate.h"

#include <glib.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

/* What browsers make for each connection: an ECDSA P-256 key and a self-signed SHA-256 certificate,
 * valid from a day ago (for a peer whose clock is behind) for 30 days. GStreamer's own (RSA 2048,
 * before 1.28) leaves a peer that offers only ECDHE-ECDSA cipher suites (current aiortc) with none
 * in common: "no shared cipher". */
char *lw_dtls_certificate_new(char **fingerprint) {
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *certificate = X509_new();
    BIGNUM *serial = BN_new();
    BIO *out = BIO_new(BIO_s_mem());
    char *pem = NULL;
    X509_NAME *name = certificate ? X509_get_subject_name(certificate) : NULL;
    gboolean made = key && certificate && serial && out && name
        && X509_set_version(certificate, 2)
        && BN_rand(serial, 64, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY)
        && BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(certificate))
        && X509_gmtime_adj(X509_getm_notBefore(certificate), -24L * 3600)
        && X509_gmtime_adj(X509_getm_notAfter(certificate), 30L * 24 * 3600)
        && X509_set_pubkey(certificate, key)
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"Layerwatch", -1, -1, 0)
        && X509_set_issuer_name(certificate, name)
        && X509_sign(certificate, key, EVP_sha256())
        && PEM_write_bio_X509(out, certificate)
        && PEM_write_bio_PrivateKey(out, key, NULL, NULL, 0, NULL, NULL);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_length = 0;
    if (made && X509_digest(certificate, EVP_sha256(), digest, &digest_length)) {
        char *bytes = NULL;
        long length = BIO_get_mem_data(out, &bytes);
        pem = g_strndup(bytes, (gsize)length);
        GString *text = g_string_new("sha-256 ");
        for (unsigned int i = 0; i < digest_length; i++) g_string_append_printf(text, i ? ":%02X" : "%02X", digest[i]);
        *fingerprint = g_string_free(text, FALSE);
    }
    BIO_free(out);
    BN_free(serial);
    X509_free(certificate);
    EVP_PKEY_free(key);
    return pem;
}
