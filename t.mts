import { generateDemoRows } from './src/data/demo/generate.ts';
import { fromPublishedRow } from './src/data/published-row.ts';
const t0=Date.now(); let n=0; const kinds:Record<string,number>={}; let first:any;
for (const row of generateDemoRows({events:20000, seed:1})) { const r=fromPublishedRow(row); n++; kinds[r.kind]=(kinds[r.kind]??0)+1; if(r.kind==='encounter' && !first) first=row; }
console.log(n, kinds, Date.now()-t0,'ms'); console.log(first);
