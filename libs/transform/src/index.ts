export { Sandbox, SOURCE_NAME } from './sandbox';
export type { RunFailure, RunFailureKind, RunResult } from './sandbox';
export { TransformRunner } from './runner';
export { DEFAULT_LIMITS, MAX_CODE_CHARS } from './limits';
export type { SandboxLimits } from './limits';
export { bodyOf, carriedOf, requestOf, ResultError } from './request';
export type { Carried, TransformContext, TransformRequest } from './request';
