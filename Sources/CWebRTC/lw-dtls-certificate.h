#ifndef LAYERWATCH_LW_DTLS_CERTIFICATE_H
#define LAYERWATCH_LW_DTLS_CERTIFICATE_H

/* A new DTLS certificate and its private key in PEM (GstDtlsCertificate's `pem`, what dtlssrtpdec
 * takes), with *fingerprint its SDP fingerprint ("sha-256 AB:…"); NULL when OpenSSL could not
 * make one. Free both with g_free. */
char *lw_dtls_certificate_new(char **fingerprint);

#endif
