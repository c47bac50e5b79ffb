#ifndef LAYERWATCH_CMOSQUITTO_SHIM_H
#define LAYERWATCH_CMOSQUITTO_SHIM_H

#include <mosquitto.h>
/* OpenSSL for the Bambu printer's FTPS (StatusKit's TLSStream) and the MD5 of a file sent to an
 * Elegoo printer, besides libmosquitto's TLS. */
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

/* The common name of the certificate the broker presented on `mosq`'s TLS connection (a Bambu
 * printer's is its serial number), written into `out`; its length, or -1 without one. */
static inline int lw_mosquitto_peer_common_name(struct mosquitto *mosq, char *out, int size) {
    SSL *ssl = (SSL *)mosquitto_ssl_get(mosq);
    if (ssl == NULL) return -1;
    X509 *certificate = SSL_get1_peer_certificate(ssl);
    if (certificate == NULL) return -1;
    int length = X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, out, size);
    X509_free(certificate);
    return length;
}

#endif
