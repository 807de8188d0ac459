/**
 * Path segments a client may send where a route expects an id, for fuzzing every route's path
 * decoding: bad percent-encodings (each must be 400 `malformed_path`), and odd but decodable ones
 * (each must get a designed answer: never a 500).
 */
export const UNDECODABLE_SEGMENTS: readonly string[] = [
  '%ZZ',
  '%',
  'ab%',
  '%4',
  '%E0%A4%A',
  // an overlong UTF-8 encoding of "/", and a lone surrogate: not UTF-8 at all
  '%C0%AF',
  '%ED%A0%80',
  '%F0%9F%98',
  '%FF',
  `${'a'.repeat(300)}%G1`,
];

export const ODD_SEGMENTS: readonly string[] = [
  'a'.repeat(4096),
  `${'%41'.repeat(2000)}`,
  '%00',
  '%2F',
  '%2e%2e',
  '..',
  '%20',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '%24where',
  '__proto__',
  'constructor',
  '%7B%22%24ne%22%3A1%7D',
];
