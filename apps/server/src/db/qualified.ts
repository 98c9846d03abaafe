import { getTableName, sql, type Column, type SQL } from 'drizzle-orm';

/**
 * A column as "table"."column". Drizzle writes a bare "column" when a query selects from one
 * table, and inside a correlated subquery a bare name binds to the subquery's own table: always
 * qualify the outer column there.
 */
export function qualified(column: Column): SQL {
  return sql.raw(`"${getTableName(column.table)}"."${column.name}"`);
}
