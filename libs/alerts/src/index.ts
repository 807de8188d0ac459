export { ANY_REJECTION, CONDITIONS, REJECTION_OUTCOMES, RULE_LIMITS } from './describe';
export type { ConditionDescription, ConditionField } from './describe';
export { validateAlertRule, idsNamedBy } from './rules';
export type { AlertCondition, AlertRule, AlertRuleInput } from './rules';
export { AlertRuleStore } from './rule-store';
export {
  CounterBuffer,
  COUNT_TTL_S,
  countKey,
  endpointSubject,
  MAX_WINDOW_MINUTES,
  minuteOf,
  readWindow,
  targetSubject,
} from './counters';
export type { CounterBufferOptions } from './counters';
export { ALERTS_PER_RULE_PER_HOUR, startsEpisode, withinRuleRate } from './episodes';
export { HISTORY_LENGTH, readHistory, recordAlert } from './history';
export type { AlertHistoryEntry } from './history';
export { alertBody, dashboardLink, summaryOf } from './message';
export type { AlertBody } from './message';
export { AlertEvaluator, conditionMatches, episodeKey } from './evaluator';
export type { AlertEvaluatorDeps } from './evaluator';
export { CounterDetector, dropWatch, runDetector, updateWatch, watchesCounters, watchKey } from './detector';
export type { DetectorDeps } from './detector';
export { consumeAccountEvents } from './consumer';
export { ALERT_RESULTS, createAlertMetrics } from './metrics';
export type { AlertMeter, AlertResult } from './metrics';
