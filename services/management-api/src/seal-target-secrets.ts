import { loadConfig } from '@relay/config';
import { createSecretBox } from '@relay/secrets';
import { connectStore } from '@relay/store';
import { createDefaultRegistry } from '@relay/targets';
import { sealTargetSecrets } from './adapters/seal-target-secrets';
import { configSpec } from './config';

/**
 * `npm run seal-target-secrets`: seals target credentials stored in plaintext before sealing
 * covered them (chat webhook URLs). Reads MONGODB_URL and SECRETS_KEYS like
 * the management API; prints `{"sealed":N,"unchanged":N,"skipped":N}`. Safe to run while the
 * services run, and again.
 */
async function main(): Promise<void> {
  const config = loadConfig(configSpec, process.env);
  const store = await connectStore(config.mongodbUrl);
  try {
    const report = await sealTargetSecrets(
      store,
      createDefaultRegistry({ secrets: createSecretBox(config.secretsKeys) }),
    );
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await store.close();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`seal-target-secrets failed: ${err.message}\n`);
  process.exitCode = 1;
});
