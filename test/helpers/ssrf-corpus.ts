// The outbound guard's corpus, shared by the guard's own tests and by every route that takes a user-supplied URL.

/** Hosts that all mean a loopback, private, link-local or otherwise closed address, in the encodings attackers use. */
export const BLOCKED = [
  'http://127.0.0.1/',
  'http://127.1/', // short form
  'http://127.0.1/',
  'http://2130706433/', // decimal
  'http://0x7f000001/', // hex
  'http://0x7f.0x0.0x0.0x1/',
  'http://0177.0.0.1/', // octal
  'http://0177.00.00.01/',
  'http://017700000001/',
  'http://0x7f.1/', // mixed
  'http://127.0.0.1./', // trailing dot
  'http://%31%32%37.0.0.1/', // percent-encoded
  'http://127。0。0。1/', // ideographic full stops
  'http://０x7f.1/', // fullwidth digits
  'http://0/',
  'http://0.0.0.0/',
  'http://[::]/',
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/', // IPv4-mapped
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:127.0.0.1]/',
  'http://[::ffff:0:7f00:1]/', // IPv4-translated
  'http://[::127.0.0.1]/', // IPv4-compatible
  'http://[64:ff9b::7f00:1]/', // NAT64
  'http://[64:ff9b:1::a00:1]/', // local-use NAT64
  'http://[2002:7f00:1::1]/', // 6to4
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[ff02::1]/',
  'http://10.0.0.1/',
  'http://10.1/',
  'http://167772161/', // 10.0.0.1 in decimal
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.0.1/',
  'http://0xc0a80001/',
  'http://100.64.0.1/', // carrier-grade NAT
  'http://169.254.169.254/latest/meta-data/', // cloud metadata
  'http://0xa9fea9fe/',
  'http://2852039166/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://198.18.0.1/',
];

/** Public addresses the guard lets through. */
export const PUBLIC = [
  'http://93.184.215.14/',
  'http://1.1.1.1/',
  'http://[2606:4700:4700::1111]/',
  'https://example.com/',
  'http://8.8.8.8:8080/x?y=1',
  'http://0x08080808/',
];

/** URLs refused for their form (scheme, credentials, syntax). */
export const REFUSED_FORMS = [
  'ftp://1.1.1.1/',
  'file:///etc/passwd',
  'gopher://1.1.1.1/',
  'http://user:pw@1.1.1.1/',
  'javascript:alert(1)',
  'not a url',
  'http://[::1/',
];
