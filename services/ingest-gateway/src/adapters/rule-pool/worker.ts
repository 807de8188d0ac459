import { parentPort, workerData } from 'node:worker_threads';
import { UnusablePatternError } from '@relay/endpoints';
import { compilePooledRules, evaluatePooled, RULE_STAGES } from '../../domain/rules/pooled-rules';
import type { CompiledPooledRules, PooledJob } from '../../domain/rules/pooled-rules';
import type { WorkerAnswer, WorkerTask } from './protocol';

/**
 * One worker of the rule pool (./pool.ts): compiles an endpoint's rules once per key and
 * evaluates jobs one at a time. Before each rule it writes the rule's stage and indexes to the
 * shared `progress` array, so that the pool can name the rule its deadline stopped.
 */
const progress = new Int32Array((workerData as { progress: SharedArrayBuffer }).progress);
/** compiled rule sets by key, oldest first; a replaced revision ages out */
const compiled = new Map<string, CompiledPooledRules>();
const MAX_COMPILED = 256;

function rulesOf(job: PooledJob): CompiledPooledRules {
  const hit = compiled.get(job.rules.key);
  if (hit) return hit;
  const rules = compilePooledRules(job.rules);
  compiled.set(job.rules.key, rules);
  if (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  return rules;
}

parentPort!.on('message', ({ id, job }: WorkerTask) => {
  // -1: compiling, no rule running yet
  Atomics.store(progress, 0, -1);
  let answer: WorkerAnswer;
  try {
    const verdict = evaluatePooled(rulesOf(job), job, (stage, index, rule = 0) => {
      Atomics.store(progress, 1, index);
      Atomics.store(progress, 2, rule);
      Atomics.store(progress, 0, RULE_STAGES.indexOf(stage));
    });
    answer = { id, verdict };
  } catch (err) {
    if (err instanceof UnusablePatternError) answer = { id, unusable: err.message };
    else answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(answer);
});
parentPort!.postMessage({ ready: true } satisfies WorkerAnswer);
