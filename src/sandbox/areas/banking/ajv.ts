// Ajv's draft 2020-12 validator, behind a module of ours so that it can be imported when first
// needed (schema-check.ts): a bundle gives a CommonJS package imported at run time its
// module.exports alone, while a re-export from an ES module keeps the named class.
export { Ajv2020 } from 'ajv/dist/2020.js';
