export { MAX_CAPTCHA_TOKEN_LENGTH, captchaRejected, captchaVerifyRequest, extractCaptchaToken, isCaptchaVerified } from './captcha';
export { compileIpAccess } from './ip-access';
