#!/usr/bin/env node
// Calls one tool of a running `bankops serve` over MCP (Streamable HTTP), as an assistant would,
// with the key in BANKOPS_MCP_KEY: a check from a shell that works on Node 20 (docs/mcp-http.md).
//
//   BANKOPS_MCP_KEY=<key> node scripts/mcp-call.mjs [<url>] <tool> [key=value ...]
//   BANKOPS_MCP_KEY=<key> node scripts/mcp-call.mjs [<url>] --list
//
// The URL defaults to http://127.0.0.1:8765/mcp. Values are JSON when they parse as JSON
// (amount=1000, flag=true), text otherwise. stdout gets JSON only, for a pipe (`| jq`): the tool's
// structured result, or the list of tool names; what the server says in words (a waiting approval's
// line, a tool's error) goes to stderr.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const args = process.argv.slice(2);
const url = args[0]?.startsWith('http') ? args.shift() : 'http://127.0.0.1:8765/mcp';
const [tool, ...pairs] = args;
const key = process.env.BANKOPS_MCP_KEY;
if (tool === undefined || key === undefined || key === '') {
  process.stderr.write(
    'usage: BANKOPS_MCP_KEY=<key> node scripts/mcp-call.mjs [<url>] <tool> [key=value ...] | --list\n',
  );
  process.exit(2);
}

const value = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
const input = Object.fromEntries(
  pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) {
      process.stderr.write(`'${pair}' is not key=value\n`);
      process.exit(2);
    }
    return [pair.slice(0, at), value(pair.slice(at + 1))];
  }),
);

const client = new Client({ name: 'bankops-mcp-call', version: '1' });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});
try {
  await client.connect(transport);
  if (tool === '--list') {
    const { tools } = await client.listTools();
    process.stdout.write(`${JSON.stringify(tools.map((t) => t.name))}\n`);
  } else {
    const result = await client.callTool({ name: tool, arguments: input });
    const texts = (result.content ?? []).filter((part) => part.type === 'text').map((part) => part.text);
    if (result.structuredContent !== undefined) {
      process.stdout.write(`${JSON.stringify(result.structuredContent)}\n`);
      // The text repeats the JSON, after a line in words when there is one (a waiting approval).
      const words = texts
        .join('\n')
        .split('\n')
        .filter((line) => !line.startsWith('{'));
      if (words.length > 0) process.stderr.write(`${words.join('\n')}\n`);
    } else if (texts.length > 0) process.stderr.write(`${texts.join('\n')}\n`);
    process.exitCode = result.isError ? 1 : 0;
  }
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const refused = /401|unauthori[sz]ed|invalid_token/i.test(message);
  process.stderr.write(
    refused
      ? `${url} refused the key (401): the policy lists no key with this digest (docs/mcp-http.md, "Keys and the policy")\n`
      : `${url}: ${message}\n`,
  );
  process.exitCode = 1;
} finally {
  await client.close().catch(() => undefined);
}
