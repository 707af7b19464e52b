import { readdirSync } from 'node:fs';
import { migrationsDir } from '../../src/db/migrate';
import { LEGACY_MIGRATIONS, migrationNameProblems } from '../../src/db/migration-names';

const sqlFiles = readdirSync(migrationsDir).filter((f) => f.endsWith('.sql'));

describe('migration file names', () => {
  it('keep the applied names and give every new file its own number above 023', () => {
    expect(migrationNameProblems(sqlFiles)).toEqual([]);
  });

  it('sort every new file after the legacy ones, in the order the migrator applies them', () => {
    const sorted = [...sqlFiles].sort();
    expect(sorted.slice(0, LEGACY_MIGRATIONS.length)).toEqual([...LEGACY_MIGRATIONS].sort());
  });

  it('refuses a duplicate number, a number not above 023, a free-form name and a renamed applied file', () => {
    const files = [...LEGACY_MIGRATIONS, '024_campaigns.sql', '024_lead_import.sql', '017_late.sql', '25_x.sql'];
    expect(migrationNameProblems(files)).toEqual([
      '024_lead_import.sql: number 024 is taken by 024_campaigns.sql; take the next free number',
      '017_late.sql: 017 is not above 023, the last legacy migration',
      '25_x.sql: a new migration is named NNN_words.sql (three digits, lowercase words joined by _)',
    ]);
    expect(migrationNameProblems(LEGACY_MIGRATIONS.filter((f) => f !== '002_journeys.sql'))).toEqual(['002_journeys.sql: applied migrations keep their names']);
  });
});
