// A second verifier of each module's secret for an external broker: Mosquitto checks passwords against
// PBKDF2-SHA512 hashes in its own format (`$7$…`), which cannot be derived from the salted SHA-256 the server
// keeps for the embedded broker. Written when a module is registered (its secret is known only then);
// `npm run mqtt-auth` turns them into the broker's password file or dynamic-security configuration.
// Modules registered before have none until they are given a new secret (see deploy/mosquitto.md).
import type { Kysely } from 'kysely';

export function brokerCredentials() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('modem').addColumn('broker_hash', 'varchar(200)').execute();
    },
  };
}
