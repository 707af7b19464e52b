#!/bin/sh
# Example certificates for docker-compose.yml (and the Helm chart's secrets), made with openssl:
#   deploy/certs/generate.sh [PUBLIC_HOST]        # default localhost
# writes, beside this script:
#   temporal/ca.pem, ca.key        a private CA for Temporal's mTLS
#   temporal/frontend.pem, .key    the Temporal frontend's server certificate (DNS: temporal, localhost)
#   temporal/client.pem, .key      the client certificate the api, workers, setup jobs and UI present
#   proxy/tls.crt, tls.key         the reverse proxy's HTTPS/wss certificate for PUBLIC_HOST (self-signed by
#                                  its own CA, proxy/ca.pem); replace with your real certificate in production
# Existing files are kept: delete a folder to make its certificates anew. The keys never leave this folder.
set -eu
cd "$(dirname "$0")"
HOST="${1:-localhost}"
DAYS=825

issue() { # name, subject CN, subjectAltName, extendedKeyUsage, ca prefix
  openssl req -new -newkey rsa:2048 -nodes -keyout "$1.key" -subj "/CN=$2" -out "$1.csr" 2>/dev/null
  printf 'subjectAltName=%s\nextendedKeyUsage=%s\nbasicConstraints=CA:FALSE\n' "$3" "$4" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$5.pem" -CAkey "$5.key" -CAcreateserial -days "$DAYS" -sha256 \
    -extfile "$1.ext" -out "$1.pem" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}

new_ca() { # prefix, CN
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$1.key" -subj "/CN=$2" -days "$DAYS" -sha256 \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign -out "$1.pem" 2>/dev/null
}

if [ ! -f temporal/client.pem ]; then
  mkdir -p temporal
  new_ca temporal/ca "Switchboard Temporal CA"
  issue temporal/frontend temporal "DNS:temporal,DNS:localhost,IP:127.0.0.1" serverAuth,clientAuth temporal/ca
  issue temporal/client switchboard "DNS:switchboard" clientAuth temporal/ca
  echo "Temporal mTLS certificates: $(pwd)/temporal"
fi

if [ ! -f proxy/tls.crt ]; then
  mkdir -p proxy
  new_ca proxy/ca "Switchboard example proxy CA"
  issue proxy/tls "$HOST" "DNS:$HOST" serverAuth proxy/ca
  mv proxy/tls.pem proxy/tls.crt
  echo "Proxy certificate for $HOST: $(pwd)/proxy/tls.crt (trust proxy/ca.pem in clients, or use your own)"
fi
# The containers run as unprivileged users: they must be able to read the keys mounted into them.
chmod 644 temporal/*.pem temporal/*.key proxy/*.crt proxy/*.key proxy/*.pem
