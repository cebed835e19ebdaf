import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create(':memory:'); const c = await i.connect();
console.log((await c.runAndReadAll(`SELECT md5_number_upper('abc'), md5_number_lower('abc'), typeof(md5_number_upper('abc'))`)).getRowsJS());
