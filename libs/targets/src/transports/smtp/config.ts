/**
 * The operator's outbound mail relay. One relay per deployment: email
 * targets choose recipients, never the server, so the relay is not an SSRF surface and may sit
 * on a private network. The deliverer's loadConfig builds this from its environment; the
 * password comes from a secret, never from a target.
 */
export interface SmtpRelayConfig {
  host: string;
  port: number;
  /**
   * `tls`: implicit TLS from the first byte (port 465). `starttls`: plain connect, then STARTTLS
   * is required — a relay that does not offer it fails the attempt rather than receiving mail in
   * clear (the default). `none`: no TLS at all, only for a catcher on loopback, opted into by name.
   */
  security: SmtpSecurity;
  /** AUTH credentials; both or neither */
  username?: string;
  password?: string;
  /** the envelope sender and From address of every message, e.g. `relay@example.com` */
  from: string;
  /** extra trust anchors (PEM) for a relay whose certificate a private CA issued */
  ca?: string;
  /** TCP connect must finish within this */
  connectionTimeoutMs: number;
  /** the relay's 220 greeting must arrive within this after connecting */
  greetingTimeoutMs: number;
  /** no byte from the relay for this long ends the attempt (covers a relay that stalls mid-DATA) */
  socketTimeoutMs: number;
  /** connections kept open to the relay per deliverer process */
  maxConnections: number;
}

export type SmtpSecurity = 'tls' | 'starttls' | 'none';

export const SMTP_DEFAULTS = {
  security: 'starttls' as SmtpSecurity,
  connectionTimeoutMs: 10_000,
  greetingTimeoutMs: 10_000,
  socketTimeoutMs: 30_000,
  maxConnections: 4,
};
