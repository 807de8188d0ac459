/** Why a result cannot be delivered: the field and what is wrong with it. */
export class ResultError extends Error {}
