// A self-signed certificate for "acme.test" only (EC P-256, valid until 2126), made for these tests with
// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=acme.test
// -addext subjectAltName=DNS:acme.test`. It protects nothing.
export const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgictOyi0SJpAAxt2M
ynzPORPEMD5NQB9dTk/FP2cmRLuhRANCAAQn8Uv/HTvkNN0IsI+B7XdiDMwOXaDx
F8dpksZAKM7d+/vUWrUgN6MixnsEb2skYBxDxGfVswv/mhtEcGmyUS9J
-----END PRIVATE KEY-----`;
export const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBlTCCATugAwIBAgIUb7XnBSVZGSyUl7qBG8/Zr7f1EmEwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJYWNtZS50ZXN0MCAXDTI2MTEyMjIyMDI1M1oYDzIxMjYxMDI5
MjIwMjUzWjAUMRIwEAYDVQQDDAlhY21lLnRlc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQn8Uv/HTvkNN0IsI+B7XdiDMwOXaDxF8dpksZAKM7d+/vUWrUgN6Mi
xnsEb2skYBxDxGfVswv/mhtEcGmyUS9Jo2kwZzAdBgNVHQ4EFgQUfch6UCV1pEsn
wfIBV2wVjzSv0pIwHwYDVR0jBBgwFoAUfch6UCV1pEsnwfIBV2wVjzSv0pIwDwYD
VR0TAQH/BAUwAwEB/zAUBgNVHREEDTALgglhY21lLnRlc3QwCgYIKoZIzj0EAwID
SAAwRQIhAOmWTxu5ZEbZziB0IOoaQ2067v76si1SfGHGy60F/9/dAiAmn6psMXnJ
MN6/ByRVvr+vwPgjpC+MhvW1zoB031aYag==
-----END CERTIFICATE-----`;
