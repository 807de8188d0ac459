export { CAPTCHA_DEFAULTS, CAPTCHA_PROVIDERS, resolveCaptchaSettings, validateCaptchaSettings } from './captcha';
export type { CaptchaProvider, CaptchaSettings, ResolvedCaptchaSettings } from './captcha';
export { MAX_IP_LIST_ENTRIES, parseIpRange, validateIpAccessLists } from './ip-lists';
export type { IpAccessLists, IpRange } from './ip-lists';
